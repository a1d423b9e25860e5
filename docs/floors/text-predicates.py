# The floor of `termdata-bench sqlite`'s text-test lines: SQLite's built-in lower() and LIKE
# (and substr) over the same 1,000,000 rows, from Python's standard library.
# python3 docs/floors/text-predicates.py
import os, sqlite3, tempfile, time

path = os.path.join(tempfile.mkdtemp(), "floor.sqlite")
db = sqlite3.connect(path)
db.execute("CREATE TABLE ZITEM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZVALUE INTEGER, ZCREATED TIMESTAMP, ZSCORE FLOAT, ZNAME VARCHAR)")
db.executemany("INSERT INTO ZITEM VALUES (?, 1, 1, ?, ?, ?, ?)",
               ((i + 1, i, float(i), (i % 1000) / 1000, "item %d" % i) for i in range(1_000_000)))
db.execute("CREATE INDEX ZITEM_ZVALUE_INDEX ON ZITEM (ZVALUE)")  # value is indexed in the model
db.commit()
queries = [
    ("BEGINSWITH[c], sort, limit 50", "SELECT Z_PK, ZNAME FROM ZITEM WHERE lower(ZNAME) LIKE 'item 9%' AND ZSCORE < 0.25 ORDER BY ZVALUE DESC LIMIT 50"),
    ("CONTAINS[cd], count", "SELECT COUNT(*) FROM ZITEM WHERE lower(ZNAME) LIKE '%99%'"),
    ("ENDSWITH[c], count", "SELECT COUNT(*) FROM ZITEM WHERE lower(ZNAME) LIKE '%7'"),
    ("==[c], count", "SELECT COUNT(*) FROM ZITEM WHERE lower(ZNAME) = 'item 123456'"),
    ("LIKE[c], count", "SELECT COUNT(*) FROM ZITEM WHERE ZNAME LIKE 'item _9%'"),
    ("BEGINSWITH[d], count", "SELECT COUNT(*) FROM ZITEM WHERE substr(ZNAME, 1, 6) = 'item 4'"),
]
for label, sql in queries:
    best = min(((lambda t: (db.execute(sql).fetchall(), time.perf_counter() - t)[1])(time.perf_counter())) for _ in range(5))
    print("%-32s %.4f s" % (label, best))
os.remove(path)
