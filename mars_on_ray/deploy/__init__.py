"""Deploying mars_on_ray: Ray nodes from Mars' command line on bare hosts (``local``), and
Kubernetes through KubeRay (``kubernetes``)."""
