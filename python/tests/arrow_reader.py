"""An Arrow C Data Interface reader written for the tests from the interface's specification
(https://arrow.apache.org/docs/format/CDataInterface.html and its C stream interface) with
ctypes: it takes a PyCapsule "arrow_array_stream", walks the ArrowSchema and ArrowArray structs
and decodes their buffers itself, checking what the specification requires of a producer:
buffer counts per format, offsets that start within and never decrease, validity bitmaps that
agree with null_count, released structs after release."""

import ctypes
import datetime
import decimal
import struct


class ArrowSchema(ctypes.Structure):
    pass


ArrowSchema._fields_ = [
    ("format", ctypes.c_char_p),
    ("name", ctypes.c_char_p),
    ("metadata", ctypes.c_void_p),
    ("flags", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowSchema))),
    ("dictionary", ctypes.POINTER(ArrowSchema)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowSchema))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArray(ctypes.Structure):
    pass


ArrowArray._fields_ = [
    ("length", ctypes.c_int64),
    ("null_count", ctypes.c_int64),
    ("offset", ctypes.c_int64),
    ("n_buffers", ctypes.c_int64),
    ("n_children", ctypes.c_int64),
    ("buffers", ctypes.POINTER(ctypes.c_void_p)),
    ("children", ctypes.POINTER(ctypes.POINTER(ArrowArray))),
    ("dictionary", ctypes.POINTER(ArrowArray)),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArray))),
    ("private_data", ctypes.c_void_p),
]


class ArrowArrayStream(ctypes.Structure):
    pass


ArrowArrayStream._fields_ = [
    ("get_schema", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream),
                                    ctypes.POINTER(ArrowSchema))),
    ("get_next", ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ArrowArrayStream),
                                  ctypes.POINTER(ArrowArray))),
    ("get_last_error", ctypes.CFUNCTYPE(ctypes.c_char_p, ctypes.POINTER(ArrowArrayStream))),
    ("release", ctypes.CFUNCTYPE(None, ctypes.POINTER(ArrowArrayStream))),
    ("private_data", ctypes.c_void_p),
]

_capsule_pointer = ctypes.pythonapi.PyCapsule_GetPointer
_capsule_pointer.restype = ctypes.c_void_p
_capsule_pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]

_capsule_new = ctypes.pythonapi.PyCapsule_New
_capsule_new.restype = ctypes.py_object
_capsule_new.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
_SCHEMA_CAPSULE = b"arrow_schema"

FLAG_NULLABLE = 2


@ArrowSchema._fields_[7][1]
def _release_requested(schema):
    schema.contents.release = ArrowSchema._fields_[7][1]()


class RequestedSchema:
    """A consumer's ArrowSchema, for a requested_schema: a struct of nullable children of the
    given formats, in an "arrow_schema" capsule (the structs live as long as this object)."""

    def __init__(self, formats):
        self.children = [ArrowSchema(format=f.encode(), name=f"c{i}".encode(),
                                     flags=FLAG_NULLABLE, release=_release_requested)
                         for i, f in enumerate(formats)]
        self.pointers = (ctypes.POINTER(ArrowSchema) * len(formats))(
            *[ctypes.pointer(c) for c in self.children])
        self.top = ArrowSchema(format=b"+s", name=b"", n_children=len(formats),
                               children=self.pointers, release=_release_requested)
        self.capsule = _capsule_new(ctypes.addressof(self.top), _SCHEMA_CAPSULE, None)


class Field:
    def __init__(self, schema):
        self.format = schema.format.decode()
        self.name = schema.name.decode() if schema.name else ""
        self.nullable = bool(schema.flags & FLAG_NULLABLE)
        self.children = [Field(schema.children[i].contents) for i in range(schema.n_children)]


# Buffers per format (validity first), from the specification's layout table.
def _buffer_count(fmt):
    if fmt == "n":
        return 0
    if fmt in ("u", "z", "U", "Z"):
        return 3
    if fmt == "+s":
        return 1
    return 2


class Stats:
    """What the reader saw: bytes in buffers, buffers, arrays."""

    def __init__(self):
        self.bytes = 0
        self.buffers = 0
        self.addresses = []


def _bytes(address, size):
    return ctypes.string_at(address, size) if size else b""


def _read_array(array, field, stats, check):
    fmt, n, off = field.format, array.length, array.offset
    check(array.n_buffers == _buffer_count(fmt),
          f"{field.name}: {array.n_buffers} buffers for format {fmt}")
    check(array.n_children == len(field.children), f"{field.name}: children")
    buffers = [array.buffers[i] for i in range(array.n_buffers)]
    valid = [True] * n
    if buffers and buffers[0]:
        bits = _bytes(buffers[0], (off + n + 7) // 8)
        stats.bytes += len(bits)
        stats.addresses.append(buffers[0])
        valid = [bool(bits[(off + i) // 8] >> ((off + i) % 8) & 1) for i in range(n)]
    nulls = valid.count(False)
    check(array.null_count in (-1, nulls), f"{field.name}: null_count {array.null_count}, "
          f"bitmap {nulls}")
    if fmt != "n" and nulls and not buffers[0]:
        check(False, f"{field.name}: nulls without a validity bitmap")

    def fixed(width, code):
        data = _bytes(buffers[1], (off + n) * width)
        stats.bytes += n * width
        stats.addresses.append(buffers[1])
        return [struct.unpack_from(code, data, (off + i) * width)[0] for i in range(n)]

    def offsets():
        raw = _bytes(buffers[1], (off + n + 1) * 4)
        stats.bytes += (n + 1) * 4
        stats.addresses.append(buffers[1])
        values = [struct.unpack_from("<i", raw, (off + i) * 4)[0] for i in range(n + 1)]
        check(values[0] >= 0, f"{field.name}: negative first offset")
        check(all(a <= b for a, b in zip(values, values[1:])), f"{field.name}: offsets decrease")
        return values

    if fmt == "n":
        values = [None] * n
    elif fmt == "b":
        bits = _bytes(buffers[1], (off + n + 7) // 8)
        stats.bytes += len(bits)
        values = [bool(bits[(off + i) // 8] >> ((off + i) % 8) & 1) for i in range(n)]
    elif fmt in ("c", "s", "i", "l", "C", "S", "I", "L", "f", "g", "tdD", "ttu", "ttn") or \
            fmt.startswith("ts"):
        code = {"c": "<b", "s": "<h", "i": "<i", "l": "<q", "C": "<B", "S": "<H", "I": "<I",
                "L": "<Q", "f": "<f", "g": "<d", "tdD": "<i", "ttu": "<q", "ttn": "<q"}.get(fmt, "<q")
        raw = fixed(struct.calcsize(code), code)
        if fmt == "tdD":
            values = [datetime.date(1970, 1, 1) + datetime.timedelta(days=v) for v in raw]
        elif fmt == "ttu":
            values = [(datetime.datetime(2000, 1, 1) + datetime.timedelta(microseconds=v)).time()
                      for v in raw]
        elif fmt.startswith("tsu"):
            tz = datetime.timezone.utc if fmt == "tsu:UTC" else None
            values = [datetime.datetime(1970, 1, 1, tzinfo=tz) + datetime.timedelta(microseconds=v)
                      for v in raw]
        else:
            values = raw
    elif fmt.startswith("d:"):
        precision, scale = (int(x) for x in fmt[2:].split(",")[:2])
        data = _bytes(buffers[1], (off + n) * 16)
        stats.bytes += n * 16
        stats.addresses.append(buffers[1])
        values = [decimal.Decimal(int.from_bytes(data[(off + i) * 16:(off + i + 1) * 16], "little",
                                                 signed=True)).scaleb(-scale)
                  for i in range(n)]
    elif fmt.startswith("w:"):
        width = int(fmt[2:])
        data = _bytes(buffers[1], (off + n) * width)
        stats.bytes += n * width
        stats.addresses.append(buffers[1])
        values = [data[(off + i) * width:(off + i + 1) * width] for i in range(n)]
    elif fmt in ("u", "z"):
        offs = offsets()
        data = _bytes(buffers[2], offs[-1])
        stats.bytes += offs[-1] - offs[0]
        stats.addresses.append(buffers[2])
        values = [data[offs[i]:offs[i + 1]] for i in range(n)]
        if fmt == "u":
            values = [v.decode() for v in values]
    elif fmt in ("+l", "+m"):
        offs = offsets()
        child = _read_array(array.children[0].contents, field.children[0], stats, check)
        check(offs[-1] <= len(child), f"{field.name}: offsets past the child")
        values = [child[offs[i]:offs[i + 1]] for i in range(n)]
        if fmt == "+m":
            values = [{entry["key"]: entry["value"] for entry in v} for v in values]
    elif fmt == "+s":
        columns = [_read_array(array.children[i].contents, f, stats, check)
                   for i, f in enumerate(field.children)]
        for f, column in zip(field.children, columns):
            check(len(column) >= off + n, f"{field.name}.{f.name}: child too short")
        values = [{f.name: column[off + i] for f, column in zip(field.children, columns)}
                  for i in range(n)]
    else:
        raise AssertionError(f"format {fmt} not known to the test reader")
    stats.buffers += sum(1 for b in buffers if b)
    return [v if ok else None for v, ok in zip(values, valid)]


def read_stream(capsule, check):
    """(names, formats, rows as tuples, Stats) from a capsule; check(condition, message) is
    called for every rule the reader verifies."""
    address = _capsule_pointer(capsule, b"arrow_array_stream")
    stream = ArrowArrayStream.from_address(address)
    schema = ArrowSchema()
    check(stream.get_schema(ctypes.byref(stream), ctypes.byref(schema)) == 0, "get_schema failed")
    top = Field(schema)
    check(top.format == "+s", f"stream schema format {top.format}")
    schema.release(ctypes.byref(schema))
    check(not schema.release, "schema not released")
    rows, stats = [], Stats()
    while True:
        array = ArrowArray()
        code = stream.get_next(ctypes.byref(stream), ctypes.byref(array))
        if code != 0:
            raise RuntimeError(stream.get_last_error(ctypes.byref(stream)).decode())
        if not array.release:
            break
        check(array.offset == 0 and array.null_count == 0, "a batch is a non-null struct")
        columns = [_read_array(array.children[i].contents, f, stats, check)
                   for i, f in enumerate(top.children)]
        rows.extend(zip(*columns))
        array.release(ctypes.byref(array))
        check(not array.release, "array not released")
    stream.release(ctypes.byref(stream))
    check(not stream.release, "stream not released")
    return [f.name for f in top.children], [f.format for f in top.children], rows, stats
