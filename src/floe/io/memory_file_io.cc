#include "floe/io/memory_file_io.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <mutex>
#include <set>

#include "floe/io/location.h"

namespace floe::io {
namespace {

// One file's bytes; shared by the directory entry and every open reader and writer.
struct Node {
  mutable std::mutex mu;
  std::string data;
};

Result<std::string> Key(std::string_view location) {
  if (location.empty()) return InvalidArgument("empty location");
  std::string_view scheme = LocationScheme(location);
  if (scheme.size() == 4 && (scheme[0] == 'f' || scheme[0] == 'F')) {
    if (auto path = ToLocalPath(location)) return NormalizeLocation(*path);
  }
  return NormalizeLocation(location);
}

// What a key's children start with: "/a" -> "/a/", "/" -> "/".
std::string ChildPrefix(const std::string& folder) {
  return folder.ends_with('/') ? folder : folder + "/";
}

}  // namespace

struct MemoryFileIO::State {
  std::mutex mu;
  std::map<std::string, std::shared_ptr<Node>> files;
  std::set<std::string> dirs;

  bool IsDir(const std::string& key) const {
    return key == "." || key == "/" || dirs.contains(key);
  }

  bool HasChildren(const std::string& key) const {
    std::string prefix = ChildPrefix(key);
    auto file = files.lower_bound(prefix);
    if (file != files.end() && file->first.starts_with(prefix)) return true;
    auto dir = dirs.lower_bound(prefix);
    return dir != dirs.end() && dir->starts_with(prefix);
  }

  // Fails when a file sits where one of key's folders should be.
  Status CheckAncestors(const std::string& key, std::string_view location) const {
    for (std::string parent = ParentLocation(key); !parent.empty();
         parent = ParentLocation(parent)) {
      if (files.contains(parent)) {
        return IOError("{}: {} is a file, not a folder", location, parent);
      }
    }
    return Ok();
  }

  void AddAncestors(const std::string& key) {
    for (std::string parent = ParentLocation(key); !parent.empty();
         parent = ParentLocation(parent)) {
      if (!dirs.insert(parent).second) break;
    }
  }

  Status CheckParentExists(const std::string& key, std::string_view location) const {
    std::string parent = ParentLocation(key);
    if (parent.empty() || IsDir(parent)) return Ok();
    if (files.contains(parent)) return IOError("{}: {} is a file, not a folder", location, parent);
    return NotFound("{}: folder {} does not exist", location, parent);
  }

  Status Rename(std::string_view from, std::string_view to, bool replace);
};

namespace {

class MemoryInputFile : public InputFile {
 public:
  MemoryInputFile(std::string location, std::shared_ptr<const Node> node, int64_t size)
      : location_(std::move(location)), node_(std::move(node)), size_(size) {}

  const std::string& location() const override { return location_; }
  Result<int64_t> Size() const override { return size_; }

  Result<size_t> ReadAt(int64_t offset, std::span<std::byte> out) const override {
    if (offset < 0) return InvalidArgument("reading {}: negative offset {}", location_, offset);
    std::lock_guard lock(node_->mu);
    int64_t end = static_cast<int64_t>(node_->data.size());
    if (offset > end || static_cast<int64_t>(out.size()) > end - offset) {
      return CorruptData("reading {}: wanted {} bytes at offset {}, but the file ends at {}",
                         location_, out.size(), offset, std::max(offset, end));
    }
    if (!out.empty()) std::memcpy(out.data(), node_->data.data() + offset, out.size());
    return out.size();
  }

 private:
  std::string location_;
  std::shared_ptr<const Node> node_;
  int64_t size_;
};

class MemoryFileWriter : public FileWriter {
 public:
  MemoryFileWriter(std::string location, std::shared_ptr<Node> node)
      : location_(std::move(location)), node_(std::move(node)) {}

  const std::string& location() const override { return location_; }
  int64_t position() const override { return position_; }

  Status Write(std::span<const std::byte> data) override {
    FLOE_RETURN_IF_ERROR(CheckOpen("write"));
    std::lock_guard lock(node_->mu);
    node_->data.append(reinterpret_cast<const char*>(data.data()), data.size());
    position_ += static_cast<int64_t>(data.size());
    return Ok();
  }

  Status Sync() override { return CheckOpen("sync"); }

  Status Close() override {
    closed_ = true;
    return Ok();
  }

 private:
  Status CheckOpen(std::string_view action) const {
    if (closed_) return InvalidArgument("cannot {} {}: the writer is closed", action, location_);
    return Ok();
  }

  std::string location_;
  std::shared_ptr<Node> node_;
  int64_t position_ = 0;
  bool closed_ = false;
};

class MemoryOutputFile : public OutputFile {
 public:
  MemoryOutputFile(std::string location, std::string key,
                   std::shared_ptr<MemoryFileIO::State> state)
      : location_(std::move(location)), key_(std::move(key)), state_(std::move(state)) {}

  const std::string& location() const override { return location_; }
  Result<std::unique_ptr<FileWriter>> Create() override { return Open(false); }
  Result<std::unique_ptr<FileWriter>> CreateOrOverwrite() override { return Open(true); }

 private:
  Result<std::unique_ptr<FileWriter>> Open(bool overwrite) {
    std::lock_guard lock(state_->mu);
    if (state_->IsDir(key_)) return IOError("creating {}: it is a folder", location_);
    FLOE_RETURN_IF_ERROR(state_->CheckAncestors(key_, location_));
    auto it = state_->files.find(key_);
    std::shared_ptr<Node> node;
    if (it != state_->files.end()) {
      if (!overwrite) return AlreadyExists("creating {}: the file exists", location_);
      // Truncate in place, as O_TRUNC does: readers already open see the new content.
      node = it->second;
      std::lock_guard node_lock(node->mu);
      node->data.clear();
    } else {
      node = std::make_shared<Node>();
      state_->AddAncestors(key_);
      state_->files.emplace(key_, node);
    }
    return std::make_unique<MemoryFileWriter>(location_, std::move(node));
  }

  std::string location_;
  std::string key_;
  std::shared_ptr<MemoryFileIO::State> state_;
};

}  // namespace

MemoryFileIO::MemoryFileIO() : state_(std::make_shared<State>()) {}
MemoryFileIO::~MemoryFileIO() = default;

Result<std::unique_ptr<InputFile>> MemoryFileIO::NewInputFile(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(std::string key, Key(location));
  std::lock_guard lock(state_->mu);
  auto it = state_->files.find(key);
  if (it == state_->files.end()) {
    if (state_->IsDir(key)) return IOError("opening {}: it is a folder", location);
    return NotFound("opening {}: no such file", location);
  }
  int64_t size;
  {
    std::lock_guard node_lock(it->second->mu);
    size = static_cast<int64_t>(it->second->data.size());
  }
  return std::make_unique<MemoryInputFile>(std::string(location), it->second, size);
}

Result<std::unique_ptr<OutputFile>> MemoryFileIO::NewOutputFile(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(std::string key, Key(location));
  return std::make_unique<MemoryOutputFile>(std::string(location), std::move(key), state_);
}

Result<FileEntry> MemoryFileIO::GetInfo(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(std::string key, Key(location));
  std::lock_guard lock(state_->mu);
  if (auto it = state_->files.find(key); it != state_->files.end()) {
    std::lock_guard node_lock(it->second->mu);
    return FileEntry{FileName(location), std::string(location),
                     static_cast<int64_t>(it->second->data.size()), false};
  }
  if (state_->IsDir(key)) return FileEntry{FileName(location), std::string(location), 0, true};
  return NotFound("inspecting {}: no such file or folder", location);
}

Status MemoryFileIO::Delete(std::string_view location) {
  FLOE_ASSIGN_OR_RETURN(std::string key, Key(location));
  std::lock_guard lock(state_->mu);
  if (state_->files.erase(key) > 0) return Ok();
  if (state_->dirs.contains(key)) {
    if (state_->HasChildren(key)) return IOError("deleting {}: the folder is not empty", location);
    state_->dirs.erase(key);
    return Ok();
  }
  return NotFound("deleting {}: no such file or folder", location);
}

Result<std::vector<FileEntry>> MemoryFileIO::List(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(std::string key, Key(folder));
  std::lock_guard lock(state_->mu);
  if (!state_->IsDir(key)) {
    if (state_->files.contains(key)) return IOError("listing {}: not a folder", folder);
    return NotFound("listing {}: no such folder", folder);
  }
  std::vector<FileEntry> entries;
  std::string prefix = key == "." ? std::string() : ChildPrefix(key);
  auto is_child = [&](const std::string& path) {
    if (!path.starts_with(prefix) || path.size() == prefix.size()) return false;
    return path.find('/', prefix.size()) == std::string::npos;
  };
  for (auto it = state_->files.lower_bound(prefix);
       it != state_->files.end() && it->first.starts_with(prefix); ++it) {
    if (!is_child(it->first)) continue;
    std::string name = it->first.substr(prefix.size());
    std::lock_guard node_lock(it->second->mu);
    entries.push_back(FileEntry{name, JoinLocation(folder, name),
                                static_cast<int64_t>(it->second->data.size()), false});
  }
  for (auto it = state_->dirs.lower_bound(prefix);
       it != state_->dirs.end() && it->starts_with(prefix); ++it) {
    if (!is_child(*it)) continue;
    std::string name = it->substr(prefix.size());
    entries.push_back(FileEntry{name, JoinLocation(folder, name), 0, true});
  }
  std::sort(entries.begin(), entries.end(),
            [](const FileEntry& a, const FileEntry& b) { return a.name < b.name; });
  return entries;
}

Status MemoryFileIO::CreateDirectories(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(std::string key, Key(folder));
  std::lock_guard lock(state_->mu);
  if (state_->files.contains(key)) return IOError("creating folder {}: a file is there", folder);
  FLOE_RETURN_IF_ERROR(state_->CheckAncestors(key, folder));
  state_->AddAncestors(key);
  state_->dirs.insert(key);
  return Ok();
}

Status MemoryFileIO::State::Rename(std::string_view from, std::string_view to, bool replace) {
  FLOE_ASSIGN_OR_RETURN(std::string from_key, Key(from));
  FLOE_ASSIGN_OR_RETURN(std::string to_key, Key(to));
  std::lock_guard lock(mu);
  bool from_is_file = files.contains(from_key);
  bool from_is_dir = !from_is_file && dirs.contains(from_key);
  if (!from_is_file && !from_is_dir) return NotFound("renaming {}: no such file or folder", from);
  if (from_key == to_key) return replace ? Ok() : AlreadyExists("renaming {} to itself", from);
  FLOE_RETURN_IF_ERROR(CheckParentExists(to_key, to));
  bool to_is_file = files.contains(to_key);
  bool to_is_dir = IsDir(to_key);
  if (!replace && (to_is_file || to_is_dir)) {
    return AlreadyExists("renaming {} to {}: the target exists", from, to);
  }
  if (from_is_file) {
    if (to_is_dir) return IOError("renaming {} to {}: the target is a folder", from, to);
    auto node = files.extract(from_key);
    node.key() = to_key;
    files.erase(to_key);
    files.insert(std::move(node));
    return Ok();
  }
  if (to_is_file) return IOError("renaming folder {} to {}: the target is a file", from, to);
  if (to_is_dir && HasChildren(to_key)) {
    return IOError("renaming {} to {}: the target folder is not empty", from, to);
  }
  std::string from_prefix = ChildPrefix(from_key);
  if (to_key.starts_with(from_prefix)) {
    return InvalidArgument("renaming {} into itself ({})", from, to);
  }
  std::string to_prefix = ChildPrefix(to_key);
  std::vector<std::string> moved_files;
  for (auto it = files.lower_bound(from_prefix);
       it != files.end() && it->first.starts_with(from_prefix); ++it) {
    moved_files.push_back(it->first);
  }
  for (const std::string& key : moved_files) {
    auto node = files.extract(key);
    node.key() = to_prefix + key.substr(from_prefix.size());
    files.insert(std::move(node));
  }
  std::vector<std::string> moved_dirs;
  for (auto it = dirs.lower_bound(from_prefix); it != dirs.end() && it->starts_with(from_prefix);
       ++it) {
    moved_dirs.push_back(*it);
  }
  for (const std::string& key : moved_dirs) {
    dirs.erase(key);
    dirs.insert(to_prefix + key.substr(from_prefix.size()));
  }
  dirs.erase(from_key);
  dirs.insert(to_key);
  return Ok();
}

Status MemoryFileIO::Rename(std::string_view from, std::string_view to) {
  return state_->Rename(from, to, true);
}

Status MemoryFileIO::RenameNoReplace(std::string_view from, std::string_view to) {
  return state_->Rename(from, to, false);
}

Status MemoryFileIO::SyncDirectory(std::string_view folder) {
  FLOE_ASSIGN_OR_RETURN(std::string key, Key(folder));
  std::lock_guard lock(state_->mu);
  if (state_->IsDir(key)) return Ok();
  if (state_->files.contains(key)) return IOError("syncing folder {}: not a folder", folder);
  return NotFound("syncing folder {}: no such folder", folder);
}

}  // namespace floe::io
