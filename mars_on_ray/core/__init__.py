"""The Ray-agnostic engine: entities, operands, keys, graph, tiling, optimizer, fusion."""
