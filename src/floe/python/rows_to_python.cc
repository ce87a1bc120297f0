#include "floe/python/rows_to_python.h"

// datetime.h needs Python.h first.
#include <datetime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "floe/batch/value.h"
#include "floe/util/calendar.h"

namespace floe::python {
namespace {

PyObject* decimal_type = nullptr;  // decimal.Decimal, owned for the module's life
PyObject* row_factory = nullptr;   // the package's factory of ROW values, owned likewise

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

int64_t ToMicros(int64_t value, TimeUnit unit) {
  return unit == TimeUnit::kNano ? FloorDiv(value, 1000) : value;
}

PyObject* DecimalObject(__int128 unscaled, int32_t scale) {
  const bool negative = unscaled < 0;
  unsigned __int128 magnitude = negative ? -static_cast<unsigned __int128>(unscaled)
                                         : static_cast<unsigned __int128>(unscaled);
  std::string digits;
  do {
    digits.insert(digits.begin(), static_cast<char>('0' + static_cast<int>(magnitude % 10)));
    magnitude /= 10;
  } while (magnitude != 0);
  std::string text = negative ? "-" : "";
  if (scale > 0) {
    if (digits.size() <= static_cast<size_t>(scale)) {
      digits.insert(0, static_cast<size_t>(scale) - digits.size() + 1, '0');
    }
    text += digits.substr(0, digits.size() - static_cast<size_t>(scale));
    text += '.';
    text += digits.substr(digits.size() - static_cast<size_t>(scale));
  } else {
    text += digits;
    if (scale < 0) text += "E+" + std::to_string(-scale);
  }
  PyObject* string = PyUnicode_FromStringAndSize(text.data(), static_cast<Py_ssize_t>(text.size()));
  if (string == nullptr) return nullptr;
  PyObject* decimal = PyObject_CallOneArg(decimal_type, string);
  Py_DECREF(string);
  return decimal;
}

PyObject* DateObject(int64_t days) {
  CivilDate date = CivilFromDays(days);
  if (date.year < 1 || date.year > 9999) {
    PyErr_Format(PyExc_ValueError, "the date of day %lld is outside Python's years 1 to 9999",
                 static_cast<long long>(days));
    return nullptr;
  }
  return PyDate_FromDate(static_cast<int>(date.year), date.month, date.day);
}

PyObject* TimeObject(int64_t micros) {
  micros = FloorMod(micros, kMicrosPerDay);
  int64_t seconds = micros / kMicrosPerSecond;
  return PyTime_FromTime(static_cast<int>(seconds / 3600), static_cast<int>(seconds / 60 % 60),
                         static_cast<int>(seconds % 60),
                         static_cast<int>(micros % kMicrosPerSecond));
}

PyObject* TimestampObject(int64_t micros, bool utc) {
  const int64_t days = FloorDiv(micros, kMicrosPerDay);
  const int64_t of_day = FloorMod(micros, kMicrosPerDay);
  CivilDate date = CivilFromDays(days);
  if (date.year < 1 || date.year > 9999) {
    PyErr_Format(PyExc_ValueError,
                 "the timestamp %lld us since the epoch is outside Python's years 1 to 9999",
                 static_cast<long long>(micros));
    return nullptr;
  }
  const int64_t seconds = of_day / kMicrosPerSecond;
  const int hour = static_cast<int>(seconds / 3600);
  const int minute = static_cast<int>(seconds / 60 % 60);
  const int second = static_cast<int>(seconds % 60);
  const int micro = static_cast<int>(of_day % kMicrosPerSecond);
  if (!utc) {
    return PyDateTime_FromDateAndTime(static_cast<int>(date.year), date.month, date.day, hour,
                                      minute, second, micro);
  }
  return PyDateTimeAPI->DateTime_FromDateAndTime(
      static_cast<int>(date.year), date.month, date.day, hour, minute, second, micro,
      PyDateTime_TimeZone_UTC, PyDateTimeAPI->DateTimeType);
}

PyObject* Bytes(std::string_view bytes) {
  return PyBytes_FromStringAndSize(bytes.data(), static_cast<Py_ssize_t>(bytes.size()));
}

PyObject* ValueObject(const Array& array, int64_t i);

// Elements [begin, end) of `values` as a list.
PyObject* ListObject(const Array& values, int64_t begin, int64_t end) {
  PyObject* list = PyList_New(static_cast<Py_ssize_t>(end - begin));
  if (list == nullptr) return nullptr;
  for (int64_t j = begin; j < end; ++j) {
    PyObject* item = ValueObject(values, j);
    if (item == nullptr) {
      Py_DECREF(list);
      return nullptr;
    }
    PyList_SET_ITEM(list, static_cast<Py_ssize_t>(j - begin), item);
  }
  return list;
}

PyObject* StructObject(const Array& array, int64_t i) {
  if (row_factory == nullptr) {
    PyErr_SetString(PyExc_RuntimeError, "floe's row factory is not set");
    return nullptr;
  }
  const DataType& type = *array.type();
  const auto n = static_cast<Py_ssize_t>(type.num_fields());
  PyObject* names = PyTuple_New(n);
  PyObject* values = names != nullptr ? PyTuple_New(n) : nullptr;
  bool filled = values != nullptr;
  for (Py_ssize_t f = 0; filled && f < n; ++f) {
    const std::string& name = type.field(static_cast<size_t>(f)).name;
    PyObject* key = PyUnicode_FromStringAndSize(name.data(), static_cast<Py_ssize_t>(name.size()));
    PyObject* value = key != nullptr ? ValueObject(array.field(static_cast<int>(f)), i) : nullptr;
    filled = value != nullptr;
    if (key != nullptr) PyTuple_SET_ITEM(names, f, key);  // steals the references
    if (value != nullptr) PyTuple_SET_ITEM(values, f, value);
  }
  PyObject* row =
      filled ? PyObject_CallFunctionObjArgs(row_factory, names, values, nullptr) : nullptr;
  Py_XDECREF(names);
  Py_XDECREF(values);
  return row;
}

PyObject* MapObject(const Array& array, int64_t i) {
  PyObject* dict = PyDict_New();
  if (dict == nullptr) return nullptr;
  const Array keys = array.map_keys();
  const Array items = array.map_items();
  for (int64_t j = array.ValueOffset(i); j < array.ValueOffset(i + 1); ++j) {
    PyObject* key = ValueObject(keys, j);
    PyObject* value = key != nullptr ? ValueObject(items, j) : nullptr;
    if (value == nullptr || PyDict_SetItem(dict, key, value) != 0) {
      Py_XDECREF(key);
      Py_XDECREF(value);
      Py_DECREF(dict);
      return nullptr;
    }
    Py_DECREF(key);
    Py_DECREF(value);
  }
  return dict;
}

// One value; the slow path for nested members. Top-level columns go through ColumnObjects.
PyObject* ValueObject(const Array& array, int64_t i) {
  if (array.IsNull(i)) Py_RETURN_NONE;
  switch (array.kind()) {
    case TypeKind::kNull:
      Py_RETURN_NONE;
    case TypeKind::kBool:
      return PyBool_FromLong(array.GetBool(i));
    case TypeKind::kInt8:
      return PyLong_FromLong(array.Value<int8_t>(i));
    case TypeKind::kInt16:
      return PyLong_FromLong(array.Value<int16_t>(i));
    case TypeKind::kInt32:
      return PyLong_FromLong(array.Value<int32_t>(i));
    case TypeKind::kInt64:
      return PyLong_FromLongLong(array.Value<int64_t>(i));
    case TypeKind::kUInt8:
      return PyLong_FromUnsignedLong(array.Value<uint8_t>(i));
    case TypeKind::kUInt16:
      return PyLong_FromUnsignedLong(array.Value<uint16_t>(i));
    case TypeKind::kUInt32:
      return PyLong_FromUnsignedLong(array.Value<uint32_t>(i));
    case TypeKind::kUInt64:
      return PyLong_FromUnsignedLongLong(array.Value<uint64_t>(i));
    case TypeKind::kFloat16:
      return PyFloat_FromDouble(HalfToFloat(array.Value<uint16_t>(i)));
    case TypeKind::kFloat32:
      return PyFloat_FromDouble(array.Value<float>(i));
    case TypeKind::kFloat64:
      return PyFloat_FromDouble(array.Value<double>(i));
    case TypeKind::kDecimal128:
      return DecimalObject(array.GetDecimal(i), array.type()->scale());
    case TypeKind::kDate32:
      return DateObject(array.Value<int32_t>(i));
    case TypeKind::kTime64:
      return TimeObject(ToMicros(array.Value<int64_t>(i), array.type()->unit()));
    case TypeKind::kTimestamp:
      return TimestampObject(ToMicros(array.Value<int64_t>(i), array.type()->unit()),
                             array.type()->utc());
    case TypeKind::kString:
    case TypeKind::kLargeString: {
      std::string_view text = array.GetView(i);
      return PyUnicode_DecodeUTF8(text.data(), static_cast<Py_ssize_t>(text.size()), "replace");
    }
    case TypeKind::kBinary:
    case TypeKind::kLargeBinary:
    case TypeKind::kFixedSizeBinary:
      return Bytes(array.GetView(i));
    case TypeKind::kList:
      return ListObject(array.list_values(), array.ValueOffset(i), array.ValueOffset(i + 1));
    case TypeKind::kStruct:
      return StructObject(array, i);
    case TypeKind::kMap:
      return MapObject(array, i);
  }
  PyErr_SetString(PyExc_TypeError, "a column type Python rows cannot hold");
  return nullptr;
}

// Fills out[0, n) with new references to the column's values; the type switch runs once, the
// loops are typed. Returns false with a Python error set (the filled references are released by
// the caller, which owns the whole vector).
template <typename Make>
bool Fill(const Array& array, std::vector<PyObject*>& out, Make make) {
  const int64_t n = array.length();
  const bool nulls = array.null_count() != 0;
  for (int64_t i = 0; i < n; ++i) {
    if (nulls && array.IsNull(i)) {
      Py_INCREF(Py_None);
      out[static_cast<size_t>(i)] = Py_None;
      continue;
    }
    PyObject* object = make(i);
    if (object == nullptr) return false;
    out[static_cast<size_t>(i)] = object;
  }
  return true;
}

bool ColumnObjects(const Array& array, std::vector<PyObject*>& out) {
  switch (array.kind()) {
    case TypeKind::kInt32: {
      const int32_t* values = array.Values<int32_t>().data();
      return Fill(array, out, [&](int64_t i) { return PyLong_FromLong(values[i]); });
    }
    case TypeKind::kInt64: {
      const int64_t* values = array.Values<int64_t>().data();
      return Fill(array, out, [&](int64_t i) { return PyLong_FromLongLong(values[i]); });
    }
    case TypeKind::kFloat64: {
      const double* values = array.Values<double>().data();
      return Fill(array, out, [&](int64_t i) { return PyFloat_FromDouble(values[i]); });
    }
    case TypeKind::kString: {
      const int32_t* offsets = array.Offsets32().data();
      const char* data = reinterpret_cast<const char*>(array.data().data());
      return Fill(array, out, [&](int64_t i) {
        return PyUnicode_DecodeUTF8(data + offsets[i], offsets[i + 1] - offsets[i], "replace");
      });
    }
    case TypeKind::kTimestamp: {
      const int64_t* values = array.Values<int64_t>().data();
      const TimeUnit unit = array.type()->unit();
      const bool utc = array.type()->utc();
      return Fill(array, out,
                  [&](int64_t i) { return TimestampObject(ToMicros(values[i], unit), utc); });
    }
    default:
      return Fill(array, out, [&](int64_t i) { return ValueObject(array, i); });
  }
}

void Release(std::vector<PyObject*>& objects) {
  for (PyObject*& object : objects) Py_CLEAR(object);
}

}  // namespace

bool InitRowConversion() {
  PyDateTime_IMPORT;
  if (PyDateTimeAPI == nullptr) return false;
  PyObject* module = PyImport_ImportModule("decimal");
  if (module == nullptr) return false;
  decimal_type = PyObject_GetAttrString(module, "Decimal");
  Py_DECREF(module);
  return decimal_type != nullptr;
}

void SetRowFactory(PyObject* factory) {
  Py_XINCREF(factory);
  PyObject* old = row_factory;
  row_factory = factory;
  Py_XDECREF(old);
}

bool AppendRows(const RecordBatch& batch, PyObject* row_classes, PyObject* out) {
  if (!PyTuple_Check(row_classes) || PyTuple_GET_SIZE(row_classes) != 4) {
    PyErr_SetString(PyExc_TypeError, "row_classes must be a tuple of four row types");
    return false;
  }
  const int64_t rows = batch.num_rows();
  const int columns = batch.num_columns();
  // Column-major: every value of a column, then the row tuples take them over.
  std::vector<std::vector<PyObject*>> values(static_cast<size_t>(columns));
  for (int c = 0; c < columns; ++c) {
    values[static_cast<size_t>(c)].assign(static_cast<size_t>(rows), nullptr);
    if (!ColumnObjects(batch.column(c), values[static_cast<size_t>(c)])) {
      for (auto& column : values) Release(column);
      return false;
    }
  }
  for (int64_t r = 0; r < rows; ++r) {
    auto* type = reinterpret_cast<PyTypeObject*>(
        PyTuple_GET_ITEM(row_classes, static_cast<Py_ssize_t>(batch.row_kind(r))));
    PyObject* row = type->tp_alloc(type, columns);
    if (row == nullptr) {
      for (auto& column : values) Release(column);
      return false;
    }
    for (int c = 0; c < columns; ++c) {
      PyObject*& item = values[static_cast<size_t>(c)][static_cast<size_t>(r)];
      PyTuple_SET_ITEM(row, c, item);  // steals the reference
      item = nullptr;
    }
    const int appended = PyList_Append(out, row);
    Py_DECREF(row);
    if (appended != 0) {
      for (auto& column : values) Release(column);
      return false;
    }
  }
  return true;
}

}  // namespace floe::python
