#include "floe/format/parquet/writer/dictionary_table.h"

#include "floe/util/xxhash64.h"

namespace floe::parquet {

uint32_t BytesDictionaryTable::Insert(std::string_view value, bool& inserted) {
  if (2 * (size() + 1) > slots_.size()) Grow();
  uint64_t hash = XxHash64(value);
  size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    Slot& slot = slots_[i];
    if (slot.index_plus_one == 0) {
      data_.append(value);
      ends_.push_back(data_.size());
      slot = {hash, static_cast<uint32_t>(ends_.size())};
      inserted = true;
      return static_cast<uint32_t>(ends_.size() - 1);
    }
    if (slot.hash == hash && this->value(slot.index_plus_one - 1) == value) {
      inserted = false;
      return slot.index_plus_one - 1;
    }
  }
}

void BytesDictionaryTable::Clear() {
  slots_.clear();
  data_.clear();
  ends_.clear();
}

void BytesDictionaryTable::Grow() {
  std::vector<Slot> old = std::move(slots_);
  slots_.assign(old.empty() ? 1024 : old.size() * 2, Slot{0, 0});
  size_t mask = slots_.size() - 1;
  for (const Slot& slot : old) {
    if (slot.index_plus_one == 0) continue;
    size_t i = slot.hash & mask;
    while (slots_[i].index_plus_one != 0) i = (i + 1) & mask;
    slots_[i] = slot;
  }
}

}  // namespace floe::parquet
