# The floor of `termdata import` of a ToDo graph file: Python's json.load, then sqlite3's
# executemany of the same rows into tables laid out as the store's (one transaction).
# python3 docs/floors/import.py /tmp/todo-200k.json /tmp/floor.sqlite
import datetime, json, os, sqlite3, sys
source, target = sys.argv[1], sys.argv[2]
if os.path.exists(target): os.remove(target)
graph = json.load(open(source))
epoch = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)
def seconds(text):
    return (datetime.datetime.fromisoformat(text.replace("Z", "+00:00")) - epoch).total_seconds() if text else None
db = sqlite3.connect(target)
db.execute("PRAGMA journal_mode=WAL")
db.execute("CREATE TABLE ZCATEGORY (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR)")
db.execute("CREATE TABLE ZTODO (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOMPLETED INTEGER, ZDONOTALERT INTEGER, "
           "ZCATEGORY INTEGER, ZDUEDATE TIMESTAMP, ZLASTALERTDATE TIMESTAMP, ZNAME VARCHAR)")
db.execute("CREATE INDEX ZTODO_ZCATEGORY_INDEX ON ZTODO (ZCATEGORY)")
db.execute("CREATE INDEX ZTODO_ZDUEDATE_INDEX ON ZTODO (ZDUEDATE)")
keys = {}
categories = graph["entities"]["Category"]
for i, c in enumerate(categories): keys[c["@id"]] = i + 1
db.executemany("INSERT INTO ZCATEGORY VALUES (?, 1, 1, ?)", ((keys[c["@id"]], c["name"]) for c in categories))
db.executemany("INSERT INTO ZTODO VALUES (?, 2, 1, ?, 0, ?, ?, NULL, ?)",
               ((i + 1, int(t.get("completed", False)), keys.get(t.get("category")), seconds(t.get("dueDate")), t["name"])
                for i, t in enumerate(graph["entities"]["ToDo"])))
db.commit()
print("imported %d object(s)" % (len(categories) + len(graph["entities"]["ToDo"])))
