"""The site's icon: linked from every page, and the browser's own request for /favicon.ico is answered."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.test import Client


def test_favicon_ico_is_not_a_404(client, db):
    response = client.get("/favicon.ico")
    assert response.status_code == 302
    assert response["Location"].endswith("favicon.ico") and "/static/" in response["Location"]
    assert finders.find("favicon.ico") and finders.find("favicon.svg")


def test_pages_link_the_icon(director, client):
    login = client.get("/accounts/login/").content.decode()
    assert 'rel="icon"' in login and "favicon.svg" in login
    c = Client()
    c.force_login(director)
    assert "favicon.svg" in c.get("/").content.decode()
