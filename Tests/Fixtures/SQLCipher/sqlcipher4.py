#!/usr/bin/env python3
"""SQLCipher 4 interoperability fixtures of Cairn's encryption tests.

    python3 sqlcipher4.py make PATH   # writes PATH with SQLCipher 4
    python3 sqlcipher4.py read PATH   # reads PATH with SQLCipher 4, prints its rows

Needs the PyPI package sqlcipher3-binary (it bundles SQLCipher 4 community;
sqlcipher-4.12.0 made the committed file). Both commands use SQLCipher 4's
defaults: only the key is given (PBKDF2-HMAC-SHA512, 256,000 iterations,
HMAC-SHA512, 4096-byte pages).

sqlcipher4.db was made with:
    python3 -m venv venv && venv/bin/pip install sqlcipher3-binary==0.6.0
    venv/bin/python sqlcipher4.py make sqlcipher4.db
"""
import sys

import sqlcipher3

PASSPHRASE = "cairn-sqlcipher4"


def connect(path):
    connection = sqlcipher3.connect(path)
    connection.execute("PRAGMA key = '%s'" % PASSPHRASE)
    return connection


def make(path):
    connection = connect(path)
    connection.executescript("""
        CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT);
        CREATE INDEX player_on_name ON player(name);
        INSERT INTO player VALUES (1, 'Arthur', 100), (2, 'Barbara', 1000), (3, 'Craig', NULL);
    """)
    connection.commit()
    print(connection.execute("PRAGMA cipher_version").fetchone()[0])
    connection.close()


def read(path):
    connection = connect(path)
    for row in connection.execute("SELECT id, name, score FROM player ORDER BY id"):
        print("|".join("" if value is None else str(value) for value in row))
    print(connection.execute("PRAGMA cipher_integrity_check").fetchall() == [] and "cipher_integrity_check: ok")
    connection.close()


if __name__ == "__main__":
    command, path = sys.argv[1], sys.argv[2]
    {"make": make, "read": read}[command](path)
