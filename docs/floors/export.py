# The floor of `termdata export` of a ToDo store: Python's sqlite3 reading every row of both
# tables, each object made a dictionary as the graph file has it (every attribute, dates as
# ISO 8601, a to-one as the destination's @id, a category's items as a list of @ids), then
# json.dump of the whole graph with Python's C encoder (compact: the pretty printer is
# written in Python and would make the floor slow).
# python3 docs/floors/export.py /tmp/store.sqlite /tmp/floor.json
import datetime, json, sqlite3, sys
source, target = sys.argv[1], sys.argv[2]
epoch = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)
def date(seconds):
    if seconds is None: return None
    return (epoch + datetime.timedelta(seconds=seconds)).strftime("%Y-%m-%dT%H:%M:%SZ")
db = sqlite3.connect("file:%s?mode=ro" % source, uri=True)
members = {}
todos = []
for pk, completed, alert, category, due, last, name in db.execute(
        "SELECT Z_PK, ZCOMPLETED, ZDONOTALERT, ZCATEGORY, ZDUEDATE, ZLASTALERTDATE, ZNAME FROM ZTODO ORDER BY Z_PK"):
    ident = "ToDo/%d" % pk
    if category is not None: members.setdefault(category, []).append(ident)
    todos.append({"@id": ident, "category": None if category is None else "Category/%d" % category,
                  "completed": bool(completed), "doNotAlert": bool(alert), "dueDate": date(due),
                  "lastAlertDate": date(last), "name": name})
categories = [{"@id": "Category/%d" % pk, "name": name, "todos": sorted(members.get(pk, []))}
              for pk, name in db.execute("SELECT Z_PK, ZNAME FROM ZCATEGORY ORDER BY Z_PK")]
with open(target, "w") as out:
    json.dump({"entities": {"Category": categories, "ToDo": todos}, "format": "termdata-graph", "version": 1}, out)
    out.write("\n")
print("exported %d object(s)" % (len(categories) + len(todos)))
