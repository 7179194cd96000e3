from core import roles


def roles_context(request):
    mine = roles.user_roles(getattr(request, "user", None))
    return {"my_roles": mine, "my_role_labels": roles.role_labels(mine), "is_director": roles.DIRECTOR in mine}
