# The floor of `termdata query` with a text test: Python's sqlite3 running the same filter with
# SQLite's built-in lower() and LIKE, sorted and limited in SQL, the 50 rows written as CSV with
# the same columns (the object's URI, the attributes, dates in ISO 8601).
# python3 docs/floors/query.py /tmp/q.sqlite
import csv, datetime, sqlite3, sys

db = sqlite3.connect("file:%s?mode=ro" % sys.argv[1], uri=True)
(uuid,) = db.execute("SELECT Z_UUID FROM Z_METADATA").fetchone()
epoch = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)  # Core Data's reference date

def date(seconds):
    return "" if seconds is None else (epoch + datetime.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")

def flag(value):
    return "" if value is None else ("true" if value else "false")

out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["@id", "completed", "doNotAlert", "dueDate", "lastAlertDate", "name"])
for pk, completed, no_alert, due, last_alert, name in db.execute(
        "SELECT Z_PK, ZCOMPLETED, ZDONOTALERT, ZDUEDATE, ZLASTALERTDATE, ZNAME FROM ZTODO"
        " WHERE lower(ZNAME) LIKE 'item 9%' AND ZCOMPLETED = 1 ORDER BY ZDUEDATE, Z_PK LIMIT 50"):
    out.writerow(["x-coredata://%s/ToDo/p%d" % (uuid, pk), flag(completed), flag(no_alert), date(due), date(last_alert), name])
