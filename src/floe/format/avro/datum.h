#pragma once

// A generic Avro value: a small tree for tools, tests and metadata-sized data (manifests go through
// it only until their typed fast path exists). A Datum carries no schema; it is always read,
// written and printed together with the Node that describes it.

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace floe::avro {

class Datum;

// bytes and fixed values; distinct from string so that the three never mix.
struct Bytes {
  std::string value;
  friend bool operator==(const Bytes&, const Bytes&) = default;
};
struct EnumValue {
  int32_t index = 0;
  friend bool operator==(const EnumValue&, const EnumValue&) = default;
};
struct Array {
  std::vector<Datum> items;
  friend bool operator==(const Array&, const Array&);
};
struct Map {
  std::vector<std::pair<std::string, Datum>> entries;  // in encoded order
  friend bool operator==(const Map&, const Map&);
};
struct Record {
  std::vector<Datum> fields;  // in the order of the schema's fields
  friend bool operator==(const Record&, const Record&);
};
// A value of one branch of a union.
struct Union {
  size_t branch = 0;
  std::unique_ptr<Datum> value;
  Union() = default;
  Union(size_t b, Datum v);
  Union(const Union& other);
  Union& operator=(const Union& other);
  Union(Union&&) = default;
  Union& operator=(Union&&) = default;
  friend bool operator==(const Union&, const Union&);
};

class Datum {
 public:
  using Value = std::variant<std::monostate, bool, int32_t, int64_t, float, double, std::string,
                             Bytes, EnumValue, Array, Map, Record, Union>;

  Datum() = default;
  template <typename T>
  requires std::is_constructible_v<Value, T&&> Datum(T&& v) : value_(std::forward<T>(v)) {}

  Value& value() { return value_; }
  const Value& value() const { return value_; }
  template <typename T>
  bool is() const {
    return std::holds_alternative<T>(value_);
  }
  template <typename T>
  const T& as() const {
    return std::get<T>(value_);
  }
  template <typename T>
  T& as() {
    return std::get<T>(value_);
  }
  bool is_null() const { return is<std::monostate>(); }

  friend bool operator==(const Datum& a, const Datum& b) { return a.value_ == b.value_; }

 private:
  Value value_;
};

}  // namespace floe::avro
