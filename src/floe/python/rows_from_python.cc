#include "floe/python/rows_from_python.h"

#include <datetime.h>
#include <fmt/ranges.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "floe/batch/make_batch.h"
#include "floe/batch/value.h"
#include "floe/util/calendar.h"

namespace floe::python {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;
constexpr int kDecimalPrecision = 38;

// A borrowed reference's Python type name, for messages.
std::string TypeName(PyObject* object) { return Py_TYPE(object)->tp_name; }

bool IsUuid(PyObject* object) {
  static PyObject* uuid_type = [] {
    PyObject* module = PyImport_ImportModule("uuid");
    PyObject* type = module != nullptr ? PyObject_GetAttrString(module, "UUID") : nullptr;
    Py_XDECREF(module);
    PyErr_Clear();
    return type;
  }();
  return uuid_type != nullptr && PyObject_IsInstance(object, uuid_type) == 1;
}

bool IsDecimal(PyObject* object) {
  static PyObject* decimal_type = [] {
    PyObject* module = PyImport_ImportModule("decimal");
    PyObject* type = module != nullptr ? PyObject_GetAttrString(module, "Decimal") : nullptr;
    Py_XDECREF(module);
    PyErr_Clear();
    return type;
  }();
  return decimal_type != nullptr && PyObject_IsInstance(object, decimal_type) == 1;
}

// The Python error now set, as a floe error (and cleared).
Error PythonError(std::string_view what) {
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  std::string message(what);
  if (value != nullptr) {
    PyObject* text = PyObject_Str(value);
    if (text != nullptr) {
      message += ": ";
      message += PyUnicode_AsUTF8(text);
      Py_DECREF(text);
    }
  }
  Py_XDECREF(type);
  Py_XDECREF(value);
  Py_XDECREF(traceback);
  PyErr_Clear();
  return Error(ErrorKind::kInvalidArgument, std::move(message));
}

// A decimal's digits and exponent: unscaled * 10^exponent.
struct DecimalParts {
  __int128 unscaled = 0;
  int64_t exponent = 0;
};

Result<DecimalParts> SplitDecimal(PyObject* object) {
  PyObject* parts = PyObject_CallMethod(object, "as_tuple", nullptr);
  if (parts == nullptr) return std::unexpected(PythonError("Decimal.as_tuple"));
  PyObject* sign = PyTuple_GetItem(parts, 0);
  PyObject* digits = PyTuple_GetItem(parts, 1);
  PyObject* exponent = PyTuple_GetItem(parts, 2);
  if (sign == nullptr || digits == nullptr || exponent == nullptr || !PyLong_Check(exponent)) {
    Py_DECREF(parts);
    PyErr_Clear();
    return InvalidArgument("the decimal {} is not finite",
                           std::string(PyUnicode_AsUTF8(PyObject_Str(object))));
  }
  DecimalParts out;
  const Py_ssize_t n = PyTuple_Size(digits);
  if (n > kDecimalPrecision) {
    Py_DECREF(parts);
    return InvalidArgument("a decimal of {} digits, more than {}", n, kDecimalPrecision);
  }
  for (Py_ssize_t i = 0; i < n; ++i) {
    out.unscaled = out.unscaled * 10 + PyLong_AsLong(PyTuple_GET_ITEM(digits, i));
  }
  if (PyLong_AsLong(sign) == 1) out.unscaled = -out.unscaled;
  out.exponent = PyLong_AsLongLong(exponent);
  Py_DECREF(parts);
  return out;
}

Result<DataTypePtr> InferType(const std::vector<PyObject*>& values, const std::string& column);

// The field names of a named tuple (a floe.Row, a collections.namedtuple: a tuple with a tuple
// of str `_fields`, one per item), or nullopt for anything else.
std::optional<std::vector<std::string>> TupleFieldNames(PyObject* object) {
  if (!PyTuple_Check(object)) return std::nullopt;
  PyObject* fields = PyObject_GetAttrString(object, "_fields");
  if (fields == nullptr) {
    PyErr_Clear();
    return std::nullopt;
  }
  std::optional<std::vector<std::string>> names;
  if (PyTuple_Check(fields) && PyTuple_GET_SIZE(fields) == PyTuple_GET_SIZE(object)) {
    names.emplace();
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(fields); ++i) {
      PyObject* name = PyTuple_GET_ITEM(fields, i);
      const char* text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : nullptr;
      if (text == nullptr) {
        PyErr_Clear();
        names.reset();
        break;
      }
      names->emplace_back(text);
    }
  }
  Py_DECREF(fields);
  return names;
}

// The items at `index` of the named tuples among `values` (a struct column's field).
std::vector<PyObject*> TupleItems(const std::vector<PyObject*>& values, Py_ssize_t index) {
  std::vector<PyObject*> out;
  for (PyObject* value : values) {
    if (PyTuple_Check(value) && index < PyTuple_GET_SIZE(value)) {
      out.push_back(PyTuple_GET_ITEM(value, index));
    }
  }
  return out;
}

// The elements of every list, or the keys or values of every dict, among `values`.
std::vector<PyObject*> Members(const std::vector<PyObject*>& values, int which) {
  std::vector<PyObject*> out;
  for (PyObject* value : values) {
    if (PyList_Check(value) || PyTuple_Check(value)) {
      PyObject* fast = PySequence_Fast(value, "");
      for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); ++i) {
        out.push_back(PySequence_Fast_GET_ITEM(fast, i));
      }
      Py_DECREF(fast);
    } else if (PyDict_Check(value)) {
      PyObject *key, *item;
      Py_ssize_t pos = 0;
      while (PyDict_Next(value, &pos, &key, &item)) out.push_back(which == 0 ? key : item);
    }
  }
  return out;
}

Result<DataTypePtr> InferType(const std::vector<PyObject*>& values, const std::string& column) {
  PyObject* first = nullptr;
  for (PyObject* value : values) {
    if (value != Py_None) {
      first = value;
      break;
    }
  }
  if (first == nullptr) {
    return InvalidArgument("column '{}' has only nulls: its type cannot be told", column);
  }
  if (PyBool_Check(first)) return DataType::Bool();
  if (PyLong_Check(first)) return DataType::Int64();
  if (PyFloat_Check(first)) return DataType::Float64();
  if (PyUnicode_Check(first)) return DataType::String();
  if (PyBytes_Check(first) || PyByteArray_Check(first)) return DataType::Binary();
  if (PyDateTime_Check(first)) {
    PyObject* tz = PyObject_GetAttrString(first, "tzinfo");
    const bool utc = tz != nullptr && tz != Py_None;
    Py_XDECREF(tz);
    return DataType::Timestamp(TimeUnit::kMicro, utc);
  }
  if (PyDate_Check(first)) return DataType::Date32();
  if (PyTime_Check(first)) return DataType::Time64(TimeUnit::kMicro);
  if (IsUuid(first)) return DataType::FixedSizeBinary(16);
  if (IsDecimal(first)) {
    int64_t scale = 0;
    for (PyObject* value : values) {
      if (value == Py_None || !IsDecimal(value)) continue;
      FLOE_ASSIGN_OR_RETURN(DecimalParts parts, SplitDecimal(value));
      scale = std::max(scale, -parts.exponent);
    }
    if (scale > kDecimalPrecision) {
      return InvalidArgument("column '{}': a decimal scale of {}, more than {}", column, scale,
                             kDecimalPrecision);
    }
    return DataType::Decimal128(kDecimalPrecision, static_cast<int32_t>(scale));
  }
  if (std::optional<std::vector<std::string>> names = TupleFieldNames(first)) {
    std::vector<Field> fields;
    for (size_t f = 0; f < names->size(); ++f) {
      FLOE_ASSIGN_OR_RETURN(
          DataTypePtr type,
          InferType(TupleItems(values, static_cast<Py_ssize_t>(f)), column + "." + (*names)[f]));
      fields.push_back(Field{(*names)[f], std::move(type), true});
    }
    return DataType::Struct(std::move(fields));
  }
  if (PyList_Check(first) || PyTuple_Check(first)) {
    FLOE_ASSIGN_OR_RETURN(DataTypePtr element, InferType(Members(values, 0), column + "[]"));
    return DataType::List(element);
  }
  if (PyDict_Check(first)) {
    FLOE_ASSIGN_OR_RETURN(DataTypePtr key, InferType(Members(values, 0), column + " key"));
    FLOE_ASSIGN_OR_RETURN(DataTypePtr item, InferType(Members(values, 1), column + " value"));
    return DataType::Map(key, item);
  }
  return InvalidArgument("column '{}': a Python {} has no column type", column, TypeName(first));
}

int64_t MicrosOfTime(PyObject* object) {
  return (PyDateTime_TIME_GET_HOUR(object) * 3600LL + PyDateTime_TIME_GET_MINUTE(object) * 60LL +
          PyDateTime_TIME_GET_SECOND(object)) *
             kMicrosPerSecond +
         PyDateTime_TIME_GET_MICROSECOND(object);
}

Result<Value> ToValue(PyObject* object, const DataType& type) {
  if (object == Py_None) return Value();
  auto mismatch = [&]() -> Result<Value> {
    return InvalidArgument("a Python {} in a column of {}", TypeName(object), type.ToString());
  };
  switch (type.kind()) {
    case TypeKind::kBool:
      if (!PyBool_Check(object)) return mismatch();
      return Value(object == Py_True);
    case TypeKind::kInt64: {
      if (!PyLong_Check(object) || PyBool_Check(object)) return mismatch();
      int overflow = 0;
      long long value = PyLong_AsLongLongAndOverflow(object, &overflow);
      if (overflow != 0) return InvalidArgument("an int outside BIGINT's range");
      return Value(static_cast<int64_t>(value));
    }
    case TypeKind::kFloat64:
      if (!PyFloat_Check(object) && !PyLong_Check(object)) return mismatch();
      return Value(PyFloat_AsDouble(object));
    case TypeKind::kString: {
      if (!PyUnicode_Check(object)) return mismatch();
      Py_ssize_t size = 0;
      const char* text = PyUnicode_AsUTF8AndSize(object, &size);
      if (text == nullptr) return std::unexpected(PythonError("a str that is not UTF-8"));
      return Value(std::string(text, static_cast<size_t>(size)));
    }
    case TypeKind::kBinary:
      if (PyBytes_Check(object)) {
        return Value(BinaryValue{
            std::string(PyBytes_AS_STRING(object), static_cast<size_t>(PyBytes_GET_SIZE(object)))});
      }
      if (PyByteArray_Check(object)) {
        return Value(BinaryValue{std::string(PyByteArray_AS_STRING(object),
                                             static_cast<size_t>(PyByteArray_GET_SIZE(object)))});
      }
      return mismatch();
    case TypeKind::kFixedSizeBinary: {
      if (!IsUuid(object)) return mismatch();
      PyObject* bytes = PyObject_GetAttrString(object, "bytes");
      if (bytes == nullptr || !PyBytes_Check(bytes))
        return std::unexpected(PythonError("UUID.bytes"));
      Value value(BinaryValue{
          std::string(PyBytes_AS_STRING(bytes), static_cast<size_t>(PyBytes_GET_SIZE(bytes)))});
      Py_DECREF(bytes);
      return value;
    }
    case TypeKind::kDecimal128: {
      if (!IsDecimal(object)) return mismatch();
      FLOE_ASSIGN_OR_RETURN(DecimalParts parts, SplitDecimal(object));
      __int128 unscaled = parts.unscaled;
      for (int64_t e = parts.exponent + type.scale(); e > 0; --e) {
        unscaled *= 10;
        if (unscaled > static_cast<__int128>(1e38) || unscaled < -static_cast<__int128>(1e38)) {
          return InvalidArgument("a decimal of more than {} digits", kDecimalPrecision);
        }
      }
      return Value(DecimalValue{unscaled, type.precision(), type.scale()});
    }
    case TypeKind::kDate32:
      if (!PyDate_Check(object) || PyDateTime_Check(object)) return mismatch();
      return Value(DateValue{static_cast<int32_t>(DaysFromCivil(
          PyDateTime_GET_YEAR(object), PyDateTime_GET_MONTH(object), PyDateTime_GET_DAY(object)))});
    case TypeKind::kTime64:
      if (!PyTime_Check(object)) return mismatch();
      return Value(TimeValue{MicrosOfTime(object), TimeUnit::kMicro});
    case TypeKind::kTimestamp: {
      if (!PyDateTime_Check(object)) return mismatch();
      PyObject* offset = PyObject_CallMethod(object, "utcoffset", nullptr);
      if (offset == nullptr) return std::unexpected(PythonError("datetime.utcoffset"));
      const bool aware = offset != Py_None;
      if (aware != type.utc()) {
        Py_DECREF(offset);
        return InvalidArgument("a {} datetime in a column of {} ones", aware ? "tz-aware" : "naive",
                               type.utc() ? "tz-aware" : "naive");
      }
      int64_t micros =
          DaysFromCivil(PyDateTime_GET_YEAR(object), PyDateTime_GET_MONTH(object),
                        PyDateTime_GET_DAY(object)) *
              kMicrosPerDay +
          (PyDateTime_DATE_GET_HOUR(object) * 3600LL + PyDateTime_DATE_GET_MINUTE(object) * 60LL +
           PyDateTime_DATE_GET_SECOND(object)) *
              kMicrosPerSecond +
          PyDateTime_DATE_GET_MICROSECOND(object);
      if (aware) {
        micros -=
            (PyDateTime_DELTA_GET_DAYS(offset) * 86'400LL + PyDateTime_DELTA_GET_SECONDS(offset)) *
                kMicrosPerSecond +
            PyDateTime_DELTA_GET_MICROSECONDS(offset);
      }
      Py_DECREF(offset);
      return Value(TimestampValue{micros, TimeUnit::kMicro, type.utc()});
    }
    case TypeKind::kList: {
      if (!PyList_Check(object) && !PyTuple_Check(object)) return mismatch();
      ListValue list;
      PyObject* fast = PySequence_Fast(object, "");
      for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(fast); ++i) {
        Result<Value> element = ToValue(PySequence_Fast_GET_ITEM(fast, i), *type.field(0).type);
        if (!element) {
          Py_DECREF(fast);
          return element;
        }
        list.elements.push_back(std::move(*element));
      }
      Py_DECREF(fast);
      return Value(std::move(list));
    }
    case TypeKind::kStruct: {
      std::optional<std::vector<std::string>> names = TupleFieldNames(object);
      if (!names) return mismatch();
      std::vector<std::string> expected;
      for (const Field& field : type.fields()) expected.push_back(field.name);
      if (*names != expected) {
        return InvalidArgument("a row of fields ({}) in a column of rows of fields ({})",
                               fmt::join(*names, ", "), fmt::join(expected, ", "));
      }
      StructValue record;
      for (int f = 0; f < type.num_fields(); ++f) {
        FLOE_ASSIGN_OR_RETURN(Value value,
                              ToValue(PyTuple_GET_ITEM(object, f), *type.field(f).type));
        record.fields.emplace_back(expected[static_cast<size_t>(f)], std::move(value));
      }
      return Value(std::move(record));
    }
    case TypeKind::kMap: {
      if (!PyDict_Check(object)) return mismatch();
      MapValue map;
      PyObject *key, *item;
      Py_ssize_t pos = 0;
      while (PyDict_Next(object, &pos, &key, &item)) {
        FLOE_ASSIGN_OR_RETURN(Value k, ToValue(key, *type.key_field().type));
        FLOE_ASSIGN_OR_RETURN(Value v, ToValue(item, *type.item_field().type));
        map.entries.emplace_back(std::move(k), std::move(v));
      }
      return Value(std::move(map));
    }
    default:
      return mismatch();
  }
}

}  // namespace

Result<RecordBatch> RowsToBatch(PyObject* rows) {
  if (PyDateTimeAPI == nullptr) PyDateTime_IMPORT;
  PyObject* fast = PySequence_Fast(rows, "write_rows takes a sequence of dicts or an Arrow stream");
  if (fast == nullptr) return std::unexpected(PythonError("rows"));
  std::unique_ptr<PyObject, void (*)(PyObject*)> owner(fast, [](PyObject* o) { Py_DECREF(o); });
  const Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  if (n == 0) return InvalidArgument("write_rows got no rows");
  std::vector<std::string> names;
  PyObject* first = PySequence_Fast_GET_ITEM(fast, 0);
  if (!PyDict_Check(first)) return InvalidArgument("row 0 is a {}, not a dict", TypeName(first));
  {
    PyObject *key, *item;
    Py_ssize_t pos = 0;
    while (PyDict_Next(first, &pos, &key, &item)) {
      if (!PyUnicode_Check(key)) return InvalidArgument("row 0 has a key that is not a str");
      names.emplace_back(PyUnicode_AsUTF8(key));
    }
  }
  std::vector<std::vector<PyObject*>> cells(names.size());
  for (Py_ssize_t r = 0; r < n; ++r) {
    PyObject* row = PySequence_Fast_GET_ITEM(fast, r);
    if (!PyDict_Check(row)) return InvalidArgument("row {} is a {}, not a dict", r, TypeName(row));
    if (PyDict_Size(row) != static_cast<Py_ssize_t>(names.size())) {
      return InvalidArgument("row {} has {} keys, row 0 has {}", r, PyDict_Size(row), names.size());
    }
    for (size_t c = 0; c < names.size(); ++c) {
      PyObject* value = PyDict_GetItemString(row, names[c].c_str());
      if (value == nullptr) return InvalidArgument("row {} has no '{}'", r, names[c]);
      cells[c].push_back(value);
    }
  }
  std::vector<Field> fields;
  std::vector<std::vector<Value>> columns(names.size());
  for (size_t c = 0; c < names.size(); ++c) {
    FLOE_ASSIGN_OR_RETURN(DataTypePtr type, InferType(cells[c], names[c]));
    columns[c].reserve(static_cast<size_t>(n));
    for (Py_ssize_t r = 0; r < n; ++r) {
      Result<Value> value = ToValue(cells[c][static_cast<size_t>(r)], *type);
      if (!value) {
        return InvalidArgument("row {}, column '{}': {}", r, names[c], value.error().message());
      }
      columns[c].push_back(std::move(*value));
    }
    fields.push_back(Field{names[c], type, true});
  }
  return MakeBatch(std::make_shared<const BatchSchema>(std::move(fields)), columns);
}

}  // namespace floe::python
