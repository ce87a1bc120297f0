#include "floe/io/location.h"

#include <filesystem>
#include <system_error>
#include <vector>

namespace floe::io {
namespace {

bool IsSchemeChar(char c, bool first) {
  bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
  if (first) return alpha;
  return alpha || (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.';
}

bool EqualsIgnoreCase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    char x = a[i] >= 'A' && a[i] <= 'Z' ? static_cast<char>(a[i] - 'A' + 'a') : a[i];
    char y = b[i] >= 'A' && b[i] <= 'Z' ? static_cast<char>(b[i] - 'A' + 'a') : b[i];
    if (x != y) return false;
  }
  return true;
}

struct SplitLocation {
  std::string_view prefix;  // "scheme://authority", "file:", "file://" or ""
  std::string_view path;
};

SplitLocation Split(std::string_view location) {
  std::string_view scheme = LocationScheme(location);
  if (scheme.empty()) return {"", location};
  size_t after_colon = scheme.size() + 1;
  if (location.substr(after_colon, 2) != "//") {
    return {location.substr(0, after_colon), location.substr(after_colon)};
  }
  size_t path_start = location.find('/', after_colon + 2);
  if (path_start == std::string_view::npos) return {location, ""};
  return {location.substr(0, path_start), location.substr(path_start)};
}

// The path with trailing '/' removed, except for a root "/".
std::string_view TrimTrailingSlashes(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  return path;
}

}  // namespace

std::string_view LocationScheme(std::string_view location) {
  size_t colon = location.find(':');
  if (colon == std::string_view::npos || colon == 0) return "";
  for (size_t i = 0; i < colon; ++i) {
    if (!IsSchemeChar(location[i], i == 0)) return "";
  }
  std::string_view scheme = location.substr(0, colon);
  if (location.substr(colon + 1, 2) == "//" || EqualsIgnoreCase(scheme, "file")) return scheme;
  return "";
}

Result<std::string> ToLocalPath(std::string_view location) {
  if (location.empty()) return InvalidArgument("empty location");
  std::string_view scheme = LocationScheme(location);
  if (scheme.empty()) return std::string(location);
  if (!EqualsIgnoreCase(scheme, "file")) {
    return Unsupported("location '{}' has scheme '{}'; only local paths and file: URIs are served",
                       location, scheme);
  }
  SplitLocation split = Split(location);
  if (split.prefix.size() > scheme.size() + 3) {  // "file://host"
    std::string_view host = split.prefix.substr(scheme.size() + 3);
    if (!EqualsIgnoreCase(host, "localhost")) {
      return Unsupported("location '{}' names remote host '{}'", location, host);
    }
  }
  if (split.path.empty()) return InvalidArgument("location '{}' has no path", location);
  return std::string(split.path);
}

std::string NormalizeLocation(std::string_view location) {
  SplitLocation split = Split(location);
  bool absolute = !split.path.empty() && split.path.front() == '/';
  std::vector<std::string_view> segments;
  std::string_view rest = split.path;
  while (!rest.empty()) {
    size_t slash = rest.find('/');
    std::string_view segment = rest.substr(0, slash);
    rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    if (segment.empty() || segment == ".") continue;
    if (segment == "..") {
      if (!segments.empty() && segments.back() != "..") {
        segments.pop_back();
        continue;
      }
      if (absolute) continue;  // "/.." is "/"
    }
    segments.push_back(segment);
  }
  std::string result(split.prefix);
  // A prefix with an authority ("s3://b") always has a rooted path.
  if (absolute || split.prefix.find("://") != std::string_view::npos) result += '/';
  for (size_t i = 0; i < segments.size(); ++i) {
    if (i > 0) result += '/';
    result += segments[i];
  }
  if (result.empty() && !location.empty()) return std::string(1, '.');
  return result;
}

std::string JoinLocation(std::string_view folder, std::string_view name) {
  while (!name.empty() && name.front() == '/') name.remove_prefix(1);
  if (folder.empty()) return std::string(name);
  std::string result(folder);
  if (result.back() != '/') result += '/';
  result += name;
  return result;
}

std::string ParentLocation(std::string_view location) {
  SplitLocation split = Split(location);
  std::string_view path = TrimTrailingSlashes(split.path);
  if (path.empty() || path == "/") return "";
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return "";
  std::string_view parent = path.substr(0, slash);
  while (!parent.empty() && parent.back() == '/') parent.remove_suffix(1);
  std::string result(split.prefix);
  result += parent.empty() ? std::string_view("/") : parent;
  return result;
}

std::string FileName(std::string_view location) {
  std::string_view path = TrimTrailingSlashes(Split(location).path);
  if (path == "/") return "";
  size_t slash = path.rfind('/');
  return std::string(slash == std::string_view::npos ? path : path.substr(slash + 1));
}

std::string AbsoluteLocation(std::string_view location) {
  if (location.empty() || !LocationScheme(location).empty() || location.front() == '/') {
    return NormalizeLocation(location);
  }
  std::error_code error;
  std::filesystem::path cwd = std::filesystem::current_path(error);
  // Without a working directory (deleted under us) the path stays relative, as it was given.
  if (error) return NormalizeLocation(location);
  return NormalizeLocation((cwd / std::string(location)).string());
}

}  // namespace floe::io
