#include "floe/io/s3/s3_options.h"

#include <charconv>
#include <cstdlib>
#include <fstream>

#include "floe/util/strings.h"

namespace floe::io {
namespace {

std::optional<std::string> Find(const Properties& properties, std::string_view key) {
  auto it = properties.find(key);
  if (it == properties.end()) return std::nullopt;
  return it->second;
}

Result<int64_t> ParseInt(std::string_view key, std::string_view text, int64_t min) {
  text = TrimWhitespace(text);
  int64_t value = 0;
  auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) {
    return InvalidArgument("property {}: '{}' is not an integer", key, text);
  }
  if (value < min)
    return InvalidArgument("property {}: {} is below the minimum {}", key, value, min);
  return value;
}

Status SetInt(const Properties& properties, std::string_view key, int64_t min, int64_t& out) {
  if (auto text = Find(properties, key)) {
    FLOE_ASSIGN_OR_RETURN(out, ParseInt(key, *text, min));
  }
  return Ok();
}

Status SetInt(const Properties& properties, std::string_view key, int64_t min, int& out) {
  int64_t value = out;
  FLOE_RETURN_IF_ERROR(SetInt(properties, key, min, value));
  if (value > 1'000'000) return InvalidArgument("property {}: {} is too large", key, value);
  out = static_cast<int>(value);
  return Ok();
}

// The sections of an AWS shared file ("[default]", "[profile x]", "[x]") as key = value maps.
std::map<std::string, Properties> ReadIniFile(const std::string& path) {
  std::map<std::string, Properties> sections;
  std::ifstream in(path);
  std::string line;
  std::string section;
  while (std::getline(in, line)) {
    std::string_view text = TrimWhitespace(line);
    if (text.empty() || text.front() == '#' || text.front() == ';') continue;
    if (text.front() == '[' && text.back() == ']') {
      section = std::string(TrimWhitespace(text.substr(1, text.size() - 2)));
      continue;
    }
    size_t equals = text.find('=');
    if (equals == std::string_view::npos) continue;
    sections[section][AsciiLower(TrimWhitespace(text.substr(0, equals)))] =
        std::string(TrimWhitespace(text.substr(equals + 1)));
  }
  return sections;
}

const Properties* Section(const std::map<std::string, Properties>& sections,
                          const std::string& name, bool config_file) {
  // ~/.aws/config names non-default profiles "profile NAME"; ~/.aws/credentials just "NAME".
  if (config_file && name != "default") {
    if (auto it = sections.find("profile " + name); it != sections.end()) return &it->second;
  }
  auto it = sections.find(name);
  return it == sections.end() ? nullptr : &it->second;
}

}  // namespace

EnvironmentLookup ProcessEnvironment() {
  return [](std::string_view name) -> std::optional<std::string> {
    const char* value = std::getenv(std::string(name).c_str());
    if (value == nullptr || *value == '\0') return std::nullopt;
    return std::string(value);
  };
}

bool IsSecretProperty(std::string_view key) {
  return key == "s3.secret-access-key" || key == "s3.session-token";
}

Status RefuseStoredSecrets(const Properties& properties) {
  for (const auto& [key, value] : properties) {
    if (!IsSecretProperty(key)) continue;
    return InvalidArgument(
        "'{}' cannot be a table property: table properties are written into the table's metadata, "
        "which every reader of the table sees; set it on the catalog (CREATE CATALOG ... WITH, "
        "--catalog) or in the environment (AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN)",
        key);
  }
  return Ok();
}

Result<S3Options> S3OptionsFrom(const Properties& properties,
                                const EnvironmentLookup& environment) {
  S3Options options;
  std::string home = environment("HOME").value_or("");
  std::string profile = environment("AWS_PROFILE").value_or("default");
  auto credentials_file =
      ReadIniFile(environment("AWS_SHARED_CREDENTIALS_FILE").value_or(home + "/.aws/credentials"));
  auto config_file = ReadIniFile(environment("AWS_CONFIG_FILE").value_or(home + "/.aws/config"));
  const Properties* profile_credentials = Section(credentials_file, profile, false);
  const Properties* profile_config = Section(config_file, profile, true);
  auto from_profile = [](const Properties* section, std::string_view key) {
    return section == nullptr ? std::nullopt : Find(*section, key);
  };

  if (auto key = Find(properties, "s3.access-key-id")) {
    options.credentials.access_key_id = *key;
    options.credentials.secret_access_key = Find(properties, "s3.secret-access-key").value_or("");
    options.credentials.session_token = Find(properties, "s3.session-token").value_or("");
  } else if (auto env_key = environment("AWS_ACCESS_KEY_ID")) {
    options.credentials.access_key_id = *env_key;
    options.credentials.secret_access_key = environment("AWS_SECRET_ACCESS_KEY").value_or("");
    options.credentials.session_token = environment("AWS_SESSION_TOKEN").value_or("");
  } else if (auto file_key = from_profile(profile_credentials, "aws_access_key_id")) {
    options.credentials.access_key_id = *file_key;
    options.credentials.secret_access_key =
        from_profile(profile_credentials, "aws_secret_access_key").value_or("");
    options.credentials.session_token =
        from_profile(profile_credentials, "aws_session_token").value_or("");
  }
  if (!options.credentials.access_key_id.empty() && options.credentials.secret_access_key.empty()) {
    return InvalidArgument("S3 access key id {} has no secret access key",
                           options.credentials.access_key_id);
  }

  std::optional<std::string> region = Find(properties, "client.region");
  if (!region) region = Find(properties, "s3.region");
  if (!region) region = environment("AWS_REGION");
  if (!region) region = environment("AWS_DEFAULT_REGION");
  if (!region) region = from_profile(profile_config, "region");
  if (region) options.region = *region;

  std::optional<std::string> endpoint = Find(properties, "s3.endpoint");
  if (!endpoint) endpoint = environment("AWS_ENDPOINT_URL_S3");
  if (!endpoint) endpoint = environment("AWS_ENDPOINT_URL");
  if (!endpoint) endpoint = from_profile(profile_config, "endpoint_url");
  if (endpoint) {
    options.endpoint = *endpoint;
    while (options.endpoint.ends_with('/')) options.endpoint.pop_back();
    if (!options.endpoint.starts_with("http://") && !options.endpoint.starts_with("https://")) {
      return InvalidArgument("property s3.endpoint: '{}' is not an http:// or https:// URL",
                             *endpoint);
    }
    // S3-compatible stores on an address of their own (MinIO, moto, Ceph) serve buckets in paths.
    options.path_style = true;
  }
  if (auto path_style = Find(properties, "s3.path-style-access")) {
    std::string value = AsciiLower(TrimWhitespace(*path_style));
    if (value != "true" && value != "false") {
      return InvalidArgument("property s3.path-style-access: '{}' is not true or false",
                             *path_style);
    }
    options.path_style = value == "true";
  }

  FLOE_RETURN_IF_ERROR(
      SetInt(properties, "s3.multipart.part-size-bytes", 5 << 20, options.part_size));
  if (auto threshold = Find(properties, "s3.multipart.threshold")) {
    std::string text(TrimWhitespace(*threshold));
    char* end = nullptr;
    double value = std::strtod(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !(value >= 1.0)) {
      return InvalidArgument("property s3.multipart.threshold: '{}' is not a factor of at least 1",
                             *threshold);
    }
    options.multipart_threshold = value;
  }
  FLOE_RETURN_IF_ERROR(SetInt(properties, "s3.multipart.num-threads", 1, options.parts_in_flight));
  FLOE_RETURN_IF_ERROR(
      SetInt(properties, "s3.connection-timeout-ms", 1, options.http.connect_timeout_ms));
  FLOE_RETURN_IF_ERROR(
      SetInt(properties, "s3.socket-timeout-ms", 1, options.http.socket_timeout_ms));
  FLOE_RETURN_IF_ERROR(SetInt(properties, "s3.max-connections", 1, options.http.max_connections));
  FLOE_RETURN_IF_ERROR(SetInt(properties, "s3.retry.max-attempts", 1, options.http.max_attempts));
  return options;
}

}  // namespace floe::io
