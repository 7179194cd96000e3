"""A refused page says in words what happened, which role may see it, and the ways on; the API's
refusals stay JSON in its one error shape."""

from __future__ import annotations

from tests.helpers import logged_in


def test_a_refused_page_names_the_role_and_links_home_and_login(dealer, tournament):
    response = logged_in(dealer).get(f"/t/{tournament.pk}/entries/")
    assert response.status_code == 403
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert '<link rel="stylesheet"' in page  # the site's own page (base.html), not a bare "403 Forbidden"
    assert "Your role does not allow this page." in page
    assert "This page is for these roles: Director, Floor, Cashier." in page
    assert "You are logged in as deal (Dealer)." in page
    assert 'href="/"' in page and 'action="/accounts/logout/"' in page and "Log in as someone else" in page


def test_a_director_only_page_names_the_one_role(floor):
    page = logged_in(floor).get("/setup/structures/").content.decode()
    assert "This page is for the role Director." in page


def test_the_api_refusals_stay_json(dealer, tournament):
    response = logged_in(dealer).get(f"/api/tournaments/{tournament.pk}/entries/")
    assert response.status_code == 403
    assert response["Content-Type"] == "application/json"
    assert response.json()["error"] == "permission_denied"
