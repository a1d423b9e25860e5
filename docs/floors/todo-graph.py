# Writes a termdata-graph file of N ToDo items in 3 categories, for timing `termdata import`.
# python3 docs/floors/todo-graph.py 200000 > /tmp/todo-200k.json
import json, sys
n = int(sys.argv[1]) if len(sys.argv) > 1 else 200000
categories = [{"@id": "c%d" % i, "name": name} for i, name in enumerate(["Home", "Work", "Garden"])]
items = [{"@id": "t%d" % i, "name": "item %d" % i, "completed": i % 3 == 0,
          "dueDate": "2024-%02d-%02dT%02d:00:00Z" % (i % 12 + 1, i % 28 + 1, i % 24),
          "category": "c%d" % (i % 3)} for i in range(n)]
json.dump({"format": "termdata-graph", "version": 1, "entities": {"Category": categories, "ToDo": items}}, sys.stdout)
