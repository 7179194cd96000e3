from core import roles


def roles_context(request):
    """The header names the login's roles; what a role may see and do is asked of core/access.py ({% if user|may:"..." %})."""
    return {"my_role_labels": roles.role_labels(roles.user_roles(getattr(request, "user", None)))}
