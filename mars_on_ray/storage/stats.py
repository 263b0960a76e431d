"""What the object store holds, spilled and restored: per node (from each raylet) and for the
objects of one session (from their owner).

Ray counts spilling and restoring per node, for every object on it; the objects of a session
are sized and placed with ``get_object_locations`` (asked of the process owning them, the
supervisor, with no extra calls when it is the owner).
"""
from __future__ import annotations

import ray


def node_store_stats() -> dict[str, dict]:
    """Per alive node (hex id): its object store's counters, one gRPC call to its raylet."""
    from ray._private.internal_api import node_stats

    out = {}
    for node in ray.nodes():
        if not node.get("Alive"):
            continue
        try:
            reply = node_stats(node["NodeManagerAddress"], node["NodeManagerPort"],
                               include_memory_info=False)
        except Exception:  # a raylet going away: its counters are gone with it
            continue
        s = reply.store_stats
        out[node["NodeID"]] = {
            "address": node["NodeManagerAddress"],
            "store_used_bytes": int(s.object_store_bytes_used),
            "store_capacity_bytes": int(s.object_store_bytes_avail),
            "store_objects": int(s.num_local_objects),
            "spilled_bytes": int(s.spilled_bytes_total),
            "spilled_objects": int(s.spilled_objects_total),
            "spill_seconds": float(s.spill_time_total_s),
            "restored_bytes": int(s.restored_bytes_total),
            "restored_objects": int(s.restored_objects_total),
            "restore_seconds": float(s.restore_time_total_s),
        }
    return out


def object_placement(refs: list) -> tuple[int, dict[str, list[int]]]:
    """(bytes of ``refs``, {node id: [bytes, objects] with a copy there}); a spilled object
    counts on no node, small objects live in their owner's memory, not in a node's store."""
    from ray.experimental import get_local_object_locations, get_object_locations

    locations = get_local_object_locations(refs)
    unknown = [r for r in refs if not (locations.get(r) or {}).get("object_size")]
    if unknown:  # not owned here (inputs the client put): ask their owner
        try:
            locations.update(get_object_locations(unknown, timeout_ms=5000))
        except Exception:
            pass
    total = 0
    per_node: dict[str, list[int]] = {}
    for ref in refs:
        where = locations.get(ref) or {}
        size = int(where.get("object_size") or 0)
        total += size
        for node_id in where.get("node_ids") or ():
            entry = per_node.setdefault(node_id, [0, 0])
            entry[0] += size
            entry[1] += 1
    return total, per_node


def storage_report(refs: list) -> dict:
    """The dict ``Session.storage_stats`` returns for a session holding ``refs``."""
    nodes = node_store_stats()
    held, placed = object_placement(refs)
    report = {
        "held_bytes": held,  # this session's chunks, in memory or spilled
        "objects": len(refs),
        "spilled_bytes": sum(n["spilled_bytes"] for n in nodes.values()),
        "restored_bytes": sum(n["restored_bytes"] for n in nodes.values()),
        "store_used_bytes": sum(n["store_used_bytes"] for n in nodes.values()),
        "store_capacity_bytes": sum(n["store_capacity_bytes"] for n in nodes.values()),
        "nodes": {},
    }
    for node_id, counters in nodes.items():
        held_here, objects_here = placed.get(node_id, (0, 0))
        report["nodes"][node_id] = {"held_bytes": held_here, "objects": objects_here, **counters}
    return report
