import re, time
values = ["Item %d of the list" % i for i in range(100000)]
p = re.compile(r".*9.*9.*", re.S | re.M)
t = time.perf_counter(); n = sum(1 for v in values if p.fullmatch(v)); e = time.perf_counter() - t
print("python re.fullmatch: %.0f values/s (%d match, %.3f s)" % (len(values) / e, n, e))
