"""Deploying mars_on_ray: Ray nodes from Mars' command line (``local``), and Kubernetes
through KubeRay (``kubernetes``)."""
