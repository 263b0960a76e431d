"""The dashboard: a read-only web UI and JSON API of the cluster, sessions, tasks and workers.

``server.WebServer`` serves ``api.Api`` and the pages in ``static/`` (plain HTML/JS/CSS, no
build step); ``services.web.WebService`` runs it inside the supervisor actor.
"""
