"""Views of the club app, one module per page of the club: `rules` (house rules), `players` (the
roster), `audit_log`, `sessions` (the list, opening, moving and deleting a session) and `logins`
(the welcome page of one-time links, a player's login, everyone's own account).

Views stay thin: check a permission, validate a form, call one service, add a message, redirect.
Every object is looked up within the current club, so one club never reaches another's rows.
"""
