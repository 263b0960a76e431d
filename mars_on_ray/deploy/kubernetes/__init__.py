"""mars_on_ray on Kubernetes through KubeRay: ``new_cluster`` (Mars' API), the manifests it
renders, the operator's rules they must pass, and the KubeDL MarsJob converter."""
from .cluster import KubernetesClusterClient, build_manifest, new_cluster
from .rules import ManifestError

__all__ = ["KubernetesClusterClient", "ManifestError", "build_manifest", "new_cluster"]
