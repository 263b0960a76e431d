"""KubeRay's CRD schemas (``shared/kuberay/crds``, see its PROVENANCE.md) as jsonschema validators.

``schema_errors(obj)`` is what the API server says of a RayCluster / RayJob: the CRD's
OpenAPI v3 schema for ``ray.io/v1``, with unknown fields rejected as ``kubectl apply`` does by
default (server-side strict field validation) instead of being silently pruned.
"""
from __future__ import annotations

import copy
import functools
import os
from pathlib import Path

import jsonschema
import yaml

CRD_FILES = {"RayCluster": "ray.io_rayclusters.yaml", "RayJob": "ray.io_rayjobs.yaml"}


VENDORED = Path(__file__).resolve().parent / "data" / "kuberay_crds"  # gzip copies, see PROVENANCE.md


def crd_dir() -> Path:
    """``$MARS_KUBERAY_CRDS``, else ``shared/kuberay/crds`` beside the repo or one of its parents,
    else the gzip copies in ``tests/data/kuberay_crds`` (a clone without the shared folder)."""
    if os.environ.get("MARS_KUBERAY_CRDS"):
        return Path(os.environ["MARS_KUBERAY_CRDS"])
    here = Path(__file__).resolve().parent
    for parent in here.parents:
        candidate = parent / "shared" / "kuberay" / "crds"
        if candidate.is_dir():
            return candidate
    return VENDORED


def _open_crd(kind: str):
    path = crd_dir() / CRD_FILES[kind]
    if path.exists():
        return open(path)
    import gzip

    return gzip.open(str(path) + ".gz", "rt")


def _strict(schema):
    """Reject fields the schema does not declare (where it declares any and keeps no others)."""
    if isinstance(schema, dict):
        schema = {k: _strict(v) for k, v in schema.items()}
        if ("properties" in schema and "additionalProperties" not in schema
                and not schema.get("x-kubernetes-preserve-unknown-fields")):
            schema["additionalProperties"] = False
        return schema
    if isinstance(schema, list):
        return [_strict(v) for v in schema]
    return schema


@functools.cache
def validator(kind: str, version: str = "v1") -> jsonschema.Draft4Validator:
    with _open_crd(kind) as f:
        crd = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    (served,) = [v for v in crd["spec"]["versions"] if v["name"] == version]
    schema = _strict(copy.deepcopy(served["schema"]["openAPIV3Schema"]))
    schema["properties"]["metadata"] = {"type": "object"}  # checked by the API server's own rules
    return jsonschema.Draft4Validator(schema)


def schema_errors(obj: dict) -> list[str]:
    """Every schema violation of ``obj`` (a ``ray.io/v1`` RayCluster or RayJob), as path: message."""
    kind = obj.get("kind")
    if kind not in CRD_FILES or obj.get("apiVersion") != "ray.io/v1":
        return [f"not a ray.io/v1 RayCluster/RayJob: {obj.get('apiVersion')}/{kind}"]
    return [f"{'.'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
            for e in validator(kind).iter_errors(obj)]
