#include "floe/format/avro/datum.h"

namespace floe::avro {

bool operator==(const Array& a, const Array& b) { return a.items == b.items; }
bool operator==(const Map& a, const Map& b) { return a.entries == b.entries; }
bool operator==(const Record& a, const Record& b) { return a.fields == b.fields; }

Union::Union(size_t b, Datum v) : branch(b), value(std::make_unique<Datum>(std::move(v))) {}

Union::Union(const Union& other)
    : branch(other.branch), value(other.value ? std::make_unique<Datum>(*other.value) : nullptr) {}

Union& Union::operator=(const Union& other) {
  if (this != &other) {
    branch = other.branch;
    value = other.value ? std::make_unique<Datum>(*other.value) : nullptr;
  }
  return *this;
}

bool operator==(const Union& a, const Union& b) {
  if (a.branch != b.branch) return false;
  if (!a.value || !b.value) return !a.value && !b.value;
  return *a.value == *b.value;
}

}  // namespace floe::avro
