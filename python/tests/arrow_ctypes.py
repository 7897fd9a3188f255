"""The Arrow C Data Interface, C Stream Interface and PyCapsule Interface in pure Python (ctypes),
written from the specifications: a stream producer that counts its release calls, and a
consumer that reads a capsule's stream, so shoal's Arrow import and export are tested without
pyarrow."""

import ctypes
from ctypes import CFUNCTYPE, POINTER, Structure, c_char_p, c_int, c_int32, c_int64, c_uint8, c_void_p

STREAM_NAME = b"arrow_array_stream"
SCHEMA_NAME = b"arrow_schema"
ARROW_FLAG_NULLABLE = 2


class ArrowSchema(Structure):
    pass


SchemaRelease = CFUNCTYPE(None, POINTER(ArrowSchema))
ArrowSchema._fields_ = [
    ("format", c_char_p), ("name", c_char_p), ("metadata", c_char_p), ("flags", c_int64),
    ("n_children", c_int64), ("children", POINTER(POINTER(ArrowSchema))),
    ("dictionary", POINTER(ArrowSchema)), ("release", SchemaRelease), ("private_data", c_void_p)]


class ArrowArray(Structure):
    pass


ArrayRelease = CFUNCTYPE(None, POINTER(ArrowArray))
ArrowArray._fields_ = [
    ("length", c_int64), ("null_count", c_int64), ("offset", c_int64), ("n_buffers", c_int64),
    ("n_children", c_int64), ("buffers", POINTER(c_void_p)), ("children", POINTER(POINTER(ArrowArray))),
    ("dictionary", POINTER(ArrowArray)), ("release", ArrayRelease), ("private_data", c_void_p)]


class ArrowArrayStream(Structure):
    pass


GetSchema = CFUNCTYPE(c_int, POINTER(ArrowArrayStream), POINTER(ArrowSchema))
GetNext = CFUNCTYPE(c_int, POINTER(ArrowArrayStream), POINTER(ArrowArray))
GetLastError = CFUNCTYPE(c_void_p, POINTER(ArrowArrayStream))  # const char*, kept alive by the producer
StreamRelease = CFUNCTYPE(None, POINTER(ArrowArrayStream))
ArrowArrayStream._fields_ = [
    ("get_schema", GetSchema), ("get_next", GetNext), ("get_last_error", GetLastError),
    ("release", StreamRelease), ("private_data", c_void_p)]

CapsuleDestructor = CFUNCTYPE(None, c_void_p)  # void (*)(PyObject*)

_capsule_new = ctypes.PYFUNCTYPE(ctypes.py_object, c_void_p, c_char_p, CapsuleDestructor)(
    ("PyCapsule_New", ctypes.pythonapi))
_capsule_pointer = ctypes.PYFUNCTYPE(c_void_p, ctypes.py_object, c_char_p)(("PyCapsule_GetPointer", ctypes.pythonapi))

# ctypes objects a capsule's C side may use after the Python objects that made them are gone
# (capsule destructors, the structs they point to). Tests only: never freed.
_forever = []

EIO = 5


def capsule(struct, name, on_destroy=None):
    """A PyCapsule named `name` over the ctypes `struct` (kept alive); `on_destroy(struct)` runs
    when the capsule is destroyed."""
    destructor = CapsuleDestructor(lambda _: on_destroy(struct) if on_destroy else None)
    _forever.append((struct, destructor))
    return _capsule_new(ctypes.addressof(struct), name, destructor)


def stream_of(capsule_obj):
    """The ArrowArrayStream inside an "arrow_array_stream" capsule (a view of its memory)."""
    return ArrowArrayStream.from_address(_capsule_pointer(capsule_obj, STREAM_NAME))


class Producer:
    """An Arrow C stream of `fields` ((name, format) pairs) and `batches` (each a list of
    columns, a column a list of values, None for NULL). Formats with data: "l" int64, "u" utf8;
    any other format can be named for schema-only tests. `fail_at`: (batch index, error code,
    message) makes get_next fail there. Counts release calls per kind in `released`; `made`
    counts the schemas and arrays handed out."""

    def __init__(self, fields, batches=(), fail_at=None):
        self.fields = list(fields)
        self.batches = list(batches)
        self.fail_at = fail_at
        self.released = {"stream": 0, "schema": 0, "array": 0}
        self.made = {"schema": 0, "array": 0}
        self._next = 0
        self._keep = []  # buffers, child structs and strings the handed-out structs point to
        self._error = None
        self._callbacks = (GetSchema(self._get_schema), GetNext(self._get_next),
                           GetLastError(self._get_last_error), StreamRelease(self._release_stream),
                           SchemaRelease(self._release_schema), ArrayRelease(self._release_array))
        _forever.append(self._callbacks)

    def __arrow_c_stream__(self, requested_schema=None):
        return self.capsule()

    def capsule(self):
        """A new capsule over a new stream (the destructor releases it unless it was moved out)."""
        s = ArrowArrayStream()
        s.get_schema, s.get_next, s.get_last_error, s.release = self._callbacks[:4]

        def destroy(struct):
            if struct.release:
                struct.release(ctypes.byref(struct))

        return capsule(s, STREAM_NAME, destroy)

    def _bytes(self, b):
        self._keep.append(b)
        return b

    def _get_schema(self, stream, out):
        children = []
        for name, fmt in self.fields:
            c = ArrowSchema()
            c.format = self._bytes(fmt.encode())
            c.name = self._bytes(name.encode())
            c.flags = ARROW_FLAG_NULLABLE
            c.release = SchemaRelease()  # released with its parent
            children.append(c)
        self._keep.extend(children)
        ptrs = (POINTER(ArrowSchema) * max(1, len(children)))(*[ctypes.pointer(c) for c in children])
        self._keep.append(ptrs)
        root = ArrowSchema()
        root.format = self._bytes(b"+s")
        root.name = self._bytes(b"")
        root.n_children = len(children)
        root.children = ptrs
        root.release = self._callbacks[4]
        self._keep.append(root)
        out[0] = root  # copies the struct into the consumer's memory
        self.made["schema"] += 1
        return 0

    def _column(self, fmt, values):
        n = len(values)
        validity = None
        nulls = sum(v is None for v in values)
        if nulls:
            bits = (c_uint8 * ((n + 7) // 8))()
            for i, v in enumerate(values):
                if v is not None:
                    bits[i >> 3] |= 1 << (i & 7)
            validity = bits
        a = ArrowArray()
        a.length, a.null_count = n, nulls
        if fmt == "l":
            data = (c_int64 * max(1, n))(*[v or 0 for v in values])
            bufs = [validity, data]
        elif fmt == "u":
            encoded = [(v or "").encode() for v in values]
            offsets = (c_int32 * (n + 1))()
            for i, e in enumerate(encoded):
                offsets[i + 1] = offsets[i] + len(e)
            chars = ctypes.create_string_buffer(b"".join(encoded), max(1, offsets[n]))
            bufs = [validity, offsets, chars]
        else:
            raise ValueError("no data for format %s" % fmt)
        self._keep.extend(b for b in bufs if b is not None)
        ptrs = (c_void_p * len(bufs))(*[ctypes.addressof(b) if b is not None else None for b in bufs])
        self._keep.append(ptrs)
        a.n_buffers = len(bufs)
        a.buffers = ptrs
        a.release = ArrayRelease()  # released with its parent
        self._keep.append(a)
        return a

    def _get_next(self, stream, out):
        if self.fail_at is not None and self._next == self.fail_at[0]:
            self._error = ctypes.create_string_buffer(self.fail_at[2].encode())
            return self.fail_at[1]
        if self._next >= len(self.batches):
            out[0] = ArrowArray()  # release NULL: the end of the stream
            return 0
        columns = self.batches[self._next]
        self._next += 1
        children = [self._column(fmt, vals) for (_, fmt), vals in zip(self.fields, columns)]
        ptrs = (POINTER(ArrowArray) * max(1, len(children)))(*[ctypes.pointer(c) for c in children])
        validity_ptrs = (c_void_p * 1)(None)
        self._keep.extend([ptrs, validity_ptrs])
        root = ArrowArray()
        root.length = len(columns[0]) if columns else 0
        root.n_buffers = 1
        root.buffers = validity_ptrs
        root.n_children = len(children)
        root.children = ptrs
        root.release = self._callbacks[5]
        self._keep.append(root)
        out[0] = root
        self.made["array"] += 1
        return 0

    def _get_last_error(self, stream):
        return ctypes.addressof(self._error) if self._error is not None else None

    def _release_stream(self, stream):
        self.released["stream"] += 1
        stream.contents.release = StreamRelease()

    def _release_schema(self, schema):
        self.released["schema"] += 1
        schema.contents.release = SchemaRelease()

    def _release_array(self, array):
        self.released["array"] += 1
        array.contents.release = ArrayRelease()


def schema_tree(s):
    """(name, format, [children]) of an ArrowSchema."""
    kids = [schema_tree(s.children[i].contents) for i in range(s.n_children)]
    return (s.name.decode() if s.name else "", s.format.decode(), kids)


def _valid(a, i):
    if not a.buffers[0]:
        return True
    j = a.offset + i
    return bool((c_uint8.from_address(a.buffers[0] + (j >> 3)).value >> (j & 7)) & 1)


def decode(fmt, a):
    """The values of an int64 ("l") or large utf8 ("U") array; None for other formats."""
    n = a.length
    if fmt == "l":
        vals = (c_int64 * n).from_address(a.buffers[1] + 8 * a.offset) if n else []
        return [vals[i] if _valid(a, i) else None for i in range(n)]
    if fmt == "U":
        offs = (c_int64 * (n + 1)).from_address(a.buffers[1] + 8 * a.offset)
        return [ctypes.string_at(a.buffers[2] + offs[i], offs[i + 1] - offs[i]).decode() if _valid(a, i) else None
                for i in range(n)]
    return None


def consume(capsule_obj, release_stream=True):
    """Reads the stream of an "arrow_array_stream" capsule: returns (schema tree, batches), a
    batch being (length, [decoded column per field]). Releases every schema and array it got,
    and the stream when `release_stream` (else the capsule's destructor has to)."""
    s = stream_of(capsule_obj)
    schema = ArrowSchema()
    assert s.get_schema(ctypes.byref(s), ctypes.byref(schema)) == 0
    tree = schema_tree(schema)
    batches = []
    while True:
        a = ArrowArray()
        rc = s.get_next(ctypes.byref(s), ctypes.byref(a))
        if rc != 0:
            raise RuntimeError(ctypes.string_at(s.get_last_error(ctypes.byref(s))).decode())
        if not a.release:
            break
        assert a.n_children == schema.n_children
        cols = [decode(tree[2][i][1], a.children[i].contents) for i in range(a.n_children)]
        batches.append((a.length, cols))
        a.release(ctypes.byref(a))
        assert not a.release, "release must mark the array released"
    schema.release(ctypes.byref(schema))
    assert not schema.release
    if release_stream:
        s.release(ctypes.byref(s))
        assert not s.release
    return tree, batches


def schema_capsule(tree=None, of_stream=None):
    """An "arrow_schema" capsule: the schema of the stream capsule `of_stream` (read with
    get_schema), or a "+s" schema of `tree` ((name, format) pairs). The destructor releases it."""
    root = ArrowSchema()
    if of_stream is not None:
        s = stream_of(of_stream)
        assert s.get_schema(ctypes.byref(s), ctypes.byref(root)) == 0
    else:
        children = []
        for name, fmt in tree:
            c = ArrowSchema()
            c.format, c.name = fmt.encode(), name.encode()  # the structs keep the bytes alive
            children.append(c)
        ptrs = (POINTER(ArrowSchema) * max(1, len(children)))(*[ctypes.pointer(c) for c in children])
        root.format, root.name = b"+s", b""
        root.n_children, root.children = len(children), ptrs
        root.release = _release_python_schema
        _forever.append((children, ptrs))

    def destroy(struct):
        if struct.release:
            struct.release(ctypes.byref(struct))

    return capsule(root, SCHEMA_NAME, destroy)


@SchemaRelease
def _release_python_schema(schema):
    schema.contents.release = SchemaRelease()
