"""Deploying mars_on_ray: Ray nodes from Mars' command line, and Kubernetes through KubeRay."""
