#include "floe/format/parquet/writer/dictionary_table_internal.h"
#include "floe/util/xxhash64.h"

namespace floe::parquet {

uint64_t BytesDictionaryTable::HashLong(std::string_view value) { return XxHash64(value); }

uint32_t BytesDictionaryTable::Add(Slot& slot, uint64_t hash, std::string_view value) {
  data_.append(value);
  ends_.push_back(data_.size());
  slot = {hash, static_cast<uint32_t>(ends_.size())};
  return static_cast<uint32_t>(ends_.size() - 1);
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
