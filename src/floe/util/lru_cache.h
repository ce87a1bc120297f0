#pragma once

// A bounded map that forgets its least recently used entry when full: for values that are
// costly to make and never change for their key (a parsed metadata file by its location, a
// serialised response by what it was made from). Thread-safe; values are shared, so a Get()
// stays valid after the entry is evicted.

#include <cstddef>
#include <list>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <utility>

namespace floe {

template <typename Key, typename Value, typename Hash = std::hash<Key>>
class LruCache {
 public:
  explicit LruCache(size_t capacity) : capacity_(capacity < 1 ? 1 : capacity) {}

  // The value of key (and marks it used), or nullptr.
  std::shared_ptr<const Value> Get(const Key& key) {
    std::lock_guard lock(mu_);
    auto it = index_.find(key);
    if (it == index_.end()) return nullptr;
    order_.splice(order_.begin(), order_, it->second);
    return it->second->second;
  }

  // Sets key's value, evicting the least recently used entry when the cache is full.
  void Put(const Key& key, std::shared_ptr<const Value> value) {
    std::lock_guard lock(mu_);
    if (auto it = index_.find(key); it != index_.end()) {
      it->second->second = std::move(value);
      order_.splice(order_.begin(), order_, it->second);
      return;
    }
    order_.emplace_front(key, std::move(value));
    index_.emplace(key, order_.begin());
    if (order_.size() > capacity_) {
      index_.erase(order_.back().first);
      order_.pop_back();
    }
  }

  size_t size() const {
    std::lock_guard lock(mu_);
    return order_.size();
  }

 private:
  using Entry = std::pair<Key, std::shared_ptr<const Value>>;
  const size_t capacity_;
  mutable std::mutex mu_;
  std::list<Entry> order_;  // most recently used first
  std::unordered_map<Key, typename std::list<Entry>::iterator, Hash> index_;
};

}  // namespace floe
