"""The store holds the families it is given: their tables, their migrations, their wipe order."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from apinizer_emulator.families import FAMILIES
from apinizer_emulator.store import Family, Store


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}


def test_a_store_holds_only_the_families_it_is_given(tmp_path: Path) -> None:
    opened: list[str] = []

    def before(conn: sqlite3.Connection) -> None:
        # Before the schema: the family's table is not there yet on a new file.
        opened.append(f"before:{'notes' in {r[0] for r in conn.execute('SELECT name FROM sqlite_master')}}")

    def after(conn: sqlite3.Connection) -> None:
        opened.append(f"after:{conn.execute('SELECT count(*) FROM notes').fetchone()[0]}")

    notes = Family(
        "notes",
        "CREATE TABLE IF NOT EXISTS notes (seq INTEGER PRIMARY KEY, body TEXT NOT NULL);",
        ("notes",),
        before_schema=(before,),
        after_schema=(after,),
    )
    path = tmp_path / "notes.db"
    store = Store(path, families=[notes])
    with store.write() as db:
        db.execute("INSERT INTO notes (body) VALUES ('kept')")
    store.close()
    assert _tables(path) == {"meta", "notes"}
    # Every opening runs the migrations again: a file already up to date is left as it is.
    Store(path, families=[notes]).close()
    assert opened == ["before:False", "after:0", "before:True", "after:1"]
    assert store.data_tables == ("notes",)


def test_every_table_of_the_families_is_emptied_by_a_reset_children_first(tmp_path: Path) -> None:
    path = tmp_path / "all.db"
    store = Store(path, families=FAMILIES)
    store.close()
    # A table a family creates but leaves out of DATA_TABLES would outlive a reset.
    assert _tables(path) - {"meta", "sqlite_sequence"} == set(store.data_tables)
    # Children first: a table is emptied before every table it refers to.
    position = {table: index for index, table in enumerate(store.data_tables)}
    with sqlite3.connect(path) as conn:
        for table in store.data_tables:
            for reference in conn.execute(f"PRAGMA foreign_key_list({table})"):
                assert position[table] < position[reference[2]], (table, reference[2])
