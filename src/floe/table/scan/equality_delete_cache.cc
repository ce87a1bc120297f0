#include "floe/table/scan/equality_delete_cache.h"

namespace floe::table {

Result<std::shared_ptr<const EqualityDeleteSet>> EqualityDeleteCache::Get(
    io::FileIO& io, const manifest::DataFile& file, const SchemaPtr& schema,
    const NameMapping* name_mapping) {
  const std::string& path = file.file_path;
  std::shared_ptr<Slot> slot;
  auto cached = [&]() -> std::shared_ptr<const EqualityDeleteSet> {
    auto it = slots_.find(path);
    if (slot->set && it != slots_.end() && it->second == slot) {
      recent_.splice(recent_.begin(), recent_, slot->recent);
    }
    return slot->set;
  };
  {
    std::lock_guard lock(mutex_);
    std::shared_ptr<Slot>& in_map = slots_[path];
    if (!in_map) in_map = std::make_shared<Slot>();
    slot = in_map;
    if (auto set = cached()) return set;
  }
  std::lock_guard loading(slot->loading);
  {
    std::lock_guard lock(mutex_);
    if (auto set = cached()) return set;
  }
  auto loaded = EqualityDeleteSet::Load(io, file, schema, name_mapping);
  std::lock_guard lock(mutex_);
  auto forget = [&] {
    auto it = slots_.find(path);
    if (it != slots_.end() && it->second == slot) slots_.erase(it);
  };
  if (!loaded) {
    forget();
    return std::unexpected(std::move(loaded.error()));
  }
  ++files_read_;
  slot->set = *loaded;
  slot->bytes = static_cast<int64_t>((*loaded)->memory_bytes());
  Status admitted = Admit(path, *slot);
  if (!admitted) {
    forget();
    return std::unexpected(std::move(admitted.error()));
  }
  return slot->set;
}

Status EqualityDeleteCache::Admit(const std::string& path, Slot& slot) {
  // Drop the least recently used sets no reader holds (the cache's is the only reference).
  for (auto it = recent_.end();
       used_bytes_ + slot.bytes > memory_bytes_ && it != recent_.begin();) {
    --it;
    auto found = slots_.find(*it);
    if (found == slots_.end() || found->second->set.use_count() > 1) continue;
    used_bytes_ -= found->second->bytes;
    slots_.erase(found);
    it = recent_.erase(it);
  }
  if (used_bytes_ + slot.bytes > memory_bytes_) {
    return ResourceExhausted(
        "equality deletes: {} holds {} keys ({} bytes in memory), and with the {} bytes of delete "
        "sets in use the scan would pass its memory budget of {} bytes",
        path, slot.set->size(), slot.bytes, used_bytes_, memory_bytes_);
  }
  used_bytes_ += slot.bytes;
  recent_.push_front(path);
  slot.recent = recent_.begin();
  return Ok();
}

int64_t EqualityDeleteCache::used_bytes() const {
  std::lock_guard lock(mutex_);
  return used_bytes_;
}

int64_t EqualityDeleteCache::files_read() const {
  std::lock_guard lock(mutex_);
  return files_read_;
}

}  // namespace floe::table
