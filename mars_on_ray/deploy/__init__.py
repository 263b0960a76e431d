"""Deploying mars_on_ray: Ray nodes on bare hosts (``local``) and on Kubernetes."""
"""Deploying mars_on_ray: Ray nodes from Mars' command line, and Kubernetes through KubeRay."""
