#include "floe/catalog/identifier.h"

#include <fmt/format.h>

namespace floe::catalog {
namespace {

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& part : parts) {
    if (!out.empty()) out += '.';
    out += part;
  }
  return out;
}

std::vector<std::string> Split(std::string_view text) {
  std::vector<std::string> parts;
  size_t begin = 0;
  while (true) {
    size_t dot = text.find('.', begin);
    parts.emplace_back(text.substr(begin, dot - begin));
    if (dot == std::string_view::npos) break;
    begin = dot + 1;
  }
  return parts;
}

}  // namespace

Status ValidateIdentifierPart(std::string_view part, std::string_view what) {
  if (part.empty()) return InvalidArgument("empty {}", what);
  if (part == "." || part == "..") return InvalidArgument("{} '{}' is not allowed", what, part);
  for (char c : part) {
    auto u = static_cast<unsigned char>(c);
    if (c == '/' || c == '\\' || u < 0x20 || u == 0x7f) {
      return InvalidArgument(
          "{} contains a forbidden character (0x{:02x}): only names without "
          "'/', '\\' and control characters are allowed",
          what, u);
    }
  }
  return {};
}

Status Validate(const Namespace& ns) {
  if (ns.levels.empty()) return InvalidArgument("empty namespace");
  for (const std::string& level : ns.levels) {
    FLOE_RETURN_IF_ERROR(ValidateIdentifierPart(level, "namespace"));
  }
  return {};
}

Status Validate(const TableIdentifier& ident) {
  FLOE_RETURN_IF_ERROR(Validate(ident.ns));
  return ValidateIdentifierPart(ident.name, "table name");
}

std::string Namespace::ToString() const { return Join(levels); }

Result<Namespace> Namespace::Parse(std::string_view text) {
  Namespace ns{Split(text)};
  FLOE_RETURN_IF_ERROR(Validate(ns));
  return ns;
}

std::string TableIdentifier::ToString() const {
  return ns.empty() ? name : ns.ToString() + '.' + name;
}

Result<TableIdentifier> TableIdentifier::Parse(std::string_view text) {
  std::vector<std::string> parts = Split(text);
  if (parts.size() < 2) {
    return InvalidArgument("table identifier '{}' needs a namespace: db.table", text);
  }
  TableIdentifier ident;
  ident.name = std::move(parts.back());
  parts.pop_back();
  ident.ns.levels = std::move(parts);
  FLOE_RETURN_IF_ERROR(Validate(ident));
  return ident;
}

}  // namespace floe::catalog
