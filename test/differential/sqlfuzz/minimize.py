"""Shrinks a failing query, then the tables' rows, while the same kind of finding persists:
greedy one-step reductions (drop a clause, an item, a join side; replace an expression by a
child or a literal), repeated until none applies or the budget is spent."""
import copy

from .sqlast import E, Derived, Join, Select, SetOp


def children(node):
    """(child, setter) pairs of a query-tree node."""
    out = []
    if isinstance(node, Select):
        for k in range(len(node.items)):
            out.append((node.items[k], lambda v, k=k: node.items.__setitem__(k, v)))
        for attr in ("frm", "where", "having"):
            if getattr(node, attr) is not None:
                out.append((getattr(node, attr), lambda v, a=attr: setattr(node, a, v)))
        for k in range(len(node.groups)):
            out.append((node.groups[k], lambda v, k=k: node.groups.__setitem__(k, v)))
    elif isinstance(node, (E, Join, Derived, SetOp)):
        for k in range(len(node.args)):
            out.append((node.args[k], lambda v, k=k: node.args.__setitem__(k, v)))
    return out


def nodes(root):
    """Every node in pre-order, as paths (lists of child positions)."""
    out, stack = [], [(root, [])]
    while stack:
        n, path = stack.pop()
        out.append(path)
        for k, (c, _) in reversed(list(enumerate(children(n)))):
            stack.append((c, path + [k]))
    return out


def at(root, path):
    n = root
    for k in path:
        n = children(n)[k][0]
    return n


def replace(root, path, make):
    """A deep copy of root with the node at `path` replaced by make(copy of that node)."""
    r = copy.deepcopy(root)
    if not path:
        return make(r)
    parent = at(r, path[:-1])
    child, setter = children(parent)[path[-1]]
    new = make(child)
    if new is None:
        return None
    setter(new)
    return r


def variants(node):
    """Simpler forms of `node` (functions of a deep copy)."""
    out = []
    if isinstance(node, Select):
        if node.where is not None:
            out.append(lambda n: _set(n, where=None))
        if node.having is not None:
            out.append(lambda n: _set(n, having=None))
        if node.distinct:
            out.append(lambda n: _set(n, distinct=False))
        if node.order or node.limit is not None:
            out.append(lambda n: _set(n, order=None, limit=None))
        if node.group_kind not in (None, "plain"):
            out.append(lambda n: _set(n, group_kind="plain", sets=None))
        for k in range(len(node.items)):
            if len(node.items) > 1:
                out.append(lambda n, k=k: _drop_item(n, k))
        for k in range(len(node.groups)):
            out.append(lambda n, k=k: _drop_group(n, k))
    elif isinstance(node, SetOp):
        out += [lambda n: n.args[0], lambda n: n.args[1]]
        if node.order or node.limit is not None:
            out.append(lambda n: _set(n, order=None, limit=None))
    elif isinstance(node, Join):
        out += [lambda n: n.args[0], lambda n: n.args[1]]
        if node.kind != "INNER" and node.kind != "CROSS":
            out.append(lambda n: _set(n, kind="INNER"))
    elif isinstance(node, E):
        for k, a in enumerate(node.args):
            if isinstance(a, E) and a.cls == node.cls:
                out.append(lambda n, k=k: n.args[k])
        if node.op not in ("lit", "col"):
            out.append(lambda n: E("lit", [], n.cls, True, value=None, sqltype=_type_of(n)))
            if node.cls == "bool":
                out.append(lambda n: E("lit", [], "bool", True, value=True, sqltype="BOOLEAN"))
    return out


def _type_of(e):
    return {"int": "INT", "double": "DOUBLE", "decimal": "DECIMAL(38,10)", "string": "STRING", "date": "DATE",
            "bool": "BOOLEAN", "timestamp": "TIMESTAMP"}[e.cls]


def _set(n, **kw):
    for k, v in kw.items():
        setattr(n, k, v)
    return n


def _drop_item(n, k):
    if n.order:
        return None
    del n.items[k]
    return n


def _drop_group(n, k):
    if n.group_kind != "plain":
        return None
    del n.groups[k]
    if not n.groups:
        n.group_kind = None
    return n


def minimize_query(q, fails, budget=400):
    """The smallest query found for which fails(query) stays true."""
    tries = 0
    changed = True
    while changed and tries < budget:
        changed = False
        for path in nodes(q):
            try:
                node = at(q, path)
            except IndexError:
                break
            for v in variants(node):
                cand = replace(q, path, v)
                if cand is None:
                    continue
                tries += 1
                if fails(cand):
                    q, changed = cand, True
                    break
                if tries >= budget:
                    return q
            if changed:
                break
    return q


def minimize_rows(tables, fails, budget=200):
    """Removes rows of `tables` (copies) while fails(tables) stays true: halves, then smaller chunks."""
    tables = copy.deepcopy(tables)
    tries = 0
    for t in tables:
        chunk = max(1, len(t.rows) // 2)
        while chunk >= 1 and tries < budget:
            i, removed = 0, False
            while i < len(t.rows) and tries < budget:
                saved = t.rows
                t.rows = saved[:i] + saved[i + chunk:]
                tries += 1
                if fails(tables):
                    removed = True
                else:
                    t.rows = saved
                    i += chunk
            if not removed:
                chunk //= 2
    return tables
