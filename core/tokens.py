"""Secrets handed to a device or a program (API tokens, lobby screen links): made here, kept only as a hash.

The database holds the SHA-256 of each secret and a short prefix to tell them apart on a list, never the
secret itself, so a dump or a backup of the database lets nobody in. The secrets are 256 random bits, so a
plain (unkeyed) hash is enough: nobody can guess one to match a hash, unlike an ID number.
"""

from __future__ import annotations

import hashlib
import secrets

PREFIX_LENGTH = 6


def new_secret() -> str:
    """43 URL-safe characters (256 bits)."""
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def prefix_of(secret: str) -> str:
    """The first characters, shown on lists so a person can tell which secret is which."""
    return secret[:PREFIX_LENGTH]
