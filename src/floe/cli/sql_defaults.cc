#include "floe/cli/sql_defaults.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace floe::cli {
namespace {

sql::Position PositionOf(const YAML::Node& node) {
  const YAML::Mark mark = node.Mark();
  return {.line = mark.line + 1, .column = mark.column + 1};
}

std::unexpected<Error> At(const std::string& path, const YAML::Node& node,
                          std::string_view message) {
  return InvalidArgument("{}: line {}: {}", path, PositionOf(node).line, message);
}

Result<std::string> Scalar(const std::string& path, const YAML::Node& node, std::string_view what) {
  if (!node.IsScalar()) return At(path, node, fmt::format("{} is not a value", what));
  return node.Scalar();
}

Status AddCatalogs(const std::string& path, const YAML::Node& catalogs,
                   std::vector<sql::Statement>& out) {
  if (!catalogs.IsSequence()) {
    return At(path, catalogs, "'catalogs' is a list of catalogs, each starting with '- name: ...'");
  }
  for (const YAML::Node& entry : catalogs) {
    if (!entry.IsMap()) {
      return At(path, entry, "a catalog is a map of its properties");
    }
    sql::CreateCatalog create;
    for (const auto& item : entry) {
      FLOE_ASSIGN_OR_RETURN(std::string key, Scalar(path, item.first, "a catalog property name"));
      FLOE_ASSIGN_OR_RETURN(std::string value,
                            Scalar(path, item.second, fmt::format("catalog property '{}'", key)));
      if (key == "name") {
        create.name = std::move(value);
      } else {
        create.options.emplace_back(std::move(key), std::move(value));
      }
    }
    if (create.name.empty()) return At(path, entry, "a catalog without a name");
    out.push_back(sql::Statement{.body = std::move(create), .position = PositionOf(entry)});
  }
  return {};
}

Status AddConfiguration(const std::string& path, const YAML::Node& configuration,
                        std::vector<sql::Statement>& out) {
  if (!configuration.IsMap()) {
    return At(path, configuration, "'configuration' is a map of option: value");
  }
  for (const auto& item : configuration) {
    FLOE_ASSIGN_OR_RETURN(std::string key, Scalar(path, item.first, "an option name"));
    FLOE_ASSIGN_OR_RETURN(std::string value,
                          Scalar(path, item.second, fmt::format("option '{}'", key)));
    out.push_back(sql::Statement{.body = sql::SetOption{.key = std::move(key), .value = value},
                                 .position = PositionOf(item.first)});
  }
  return {};
}

Result<std::vector<sql::Statement>> Read(const std::string& path) {
  YAML::Node root = YAML::LoadFile(path);
  std::vector<sql::Statement> statements;
  if (root.IsNull()) return statements;
  if (!root.IsMap()) {
    return At(path, root, "expected the sections 'catalogs' and 'configuration'");
  }
  for (const auto& section : root) {
    FLOE_ASSIGN_OR_RETURN(std::string name, Scalar(path, section.first, "a section name"));
    if (name == "catalogs") {
      FLOE_RETURN_IF_ERROR(AddCatalogs(path, section.second, statements));
    } else if (name == "configuration") {
      FLOE_RETURN_IF_ERROR(AddConfiguration(path, section.second, statements));
    } else {
      return At(
          path, section.first,
          fmt::format("unknown section '{}' (floe reads 'catalogs' and 'configuration')", name));
    }
  }
  return statements;
}

}  // namespace

Result<std::vector<sql::Statement>> ReadSqlDefaults(const std::string& path) {
  // yaml-cpp reports with exceptions; they end here.
  try {
    return Read(path);
  } catch (const YAML::BadFile&) {
    return NotFound("cannot open defaults file '{}'", path);
  } catch (const YAML::Exception& error) {
    return InvalidArgument("{}: line {}, column {}: {}", path, error.mark.line + 1,
                           error.mark.column + 1, error.msg);
  }
}

}  // namespace floe::cli
