"""Deploying mars_on_ray: Ray nodes on bare hosts (``local``) and on Kubernetes."""
