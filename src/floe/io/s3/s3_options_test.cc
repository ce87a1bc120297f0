// Where S3 settings come from: properties, then the AWS environment, then the shared AWS files.

#include "floe/io/s3/s3_options.h"

#include <gtest/gtest.h>

#include <fstream>

#include "floe/testing/testing.h"

namespace floe::io {
namespace {

EnvironmentLookup Env(std::map<std::string, std::string> values) {
  return [values = std::move(values)](std::string_view name) -> std::optional<std::string> {
    auto it = values.find(std::string(name));
    if (it == values.end()) return std::nullopt;
    return it->second;
  };
}

TEST(S3OptionsTest, DefaultsWithoutAnything) {
  FLOE_ASSERT_OK_AND_ASSIGN(S3Options options, S3OptionsFrom({}, Env({{"HOME", "/nonexistent"}})));
  EXPECT_EQ(options.endpoint, "");
  EXPECT_FALSE(options.path_style);
  EXPECT_EQ(options.region, "us-east-1");
  EXPECT_EQ(options.credentials.access_key_id, "");
  EXPECT_EQ(options.part_size, 32 << 20);
  EXPECT_DOUBLE_EQ(options.multipart_threshold, 1.5);
}

TEST(S3OptionsTest, PropertiesAsIcebergSpellsThem) {
  Properties properties{{"s3.endpoint", "http://127.0.0.1:9000/"},
                        {"s3.access-key-id", "AKID"},
                        {"s3.secret-access-key", "SECRET"},
                        {"s3.session-token", "TOKEN"},
                        {"client.region", "eu-west-1"},
                        {"s3.multipart.part-size-bytes", "8388608"},
                        {"s3.multipart.threshold", "2"},
                        {"s3.multipart.num-threads", "3"},
                        {"s3.connection-timeout-ms", "1500"},
                        {"s3.socket-timeout-ms", "2500"},
                        {"s3.max-connections", "7"},
                        {"s3.retry.max-attempts", "9"}};
  // The environment loses to the properties.
  FLOE_ASSERT_OK_AND_ASSIGN(
      S3Options options,
      S3OptionsFrom(properties, Env({{"AWS_ACCESS_KEY_ID", "ENVKEY"},
                                     {"AWS_SECRET_ACCESS_KEY", "ENVSECRET"},
                                     {"AWS_REGION", "us-west-2"},
                                     {"AWS_ENDPOINT_URL", "http://elsewhere:1"}})));
  EXPECT_EQ(options.endpoint, "http://127.0.0.1:9000");
  EXPECT_TRUE(options.path_style);  // an endpoint of its own serves buckets in paths
  EXPECT_EQ(options.credentials.access_key_id, "AKID");
  EXPECT_EQ(options.credentials.secret_access_key, "SECRET");
  EXPECT_EQ(options.credentials.session_token, "TOKEN");
  EXPECT_EQ(options.region, "eu-west-1");
  EXPECT_EQ(options.part_size, 8388608);
  EXPECT_DOUBLE_EQ(options.multipart_threshold, 2.0);
  EXPECT_EQ(options.parts_in_flight, 3);
  EXPECT_EQ(options.http.connect_timeout_ms, 1500);
  EXPECT_EQ(options.http.socket_timeout_ms, 2500);
  EXPECT_EQ(options.http.max_connections, 7);
  EXPECT_EQ(options.http.max_attempts, 9);

  properties["s3.path-style-access"] = "false";
  properties.erase("client.region");
  properties["s3.region"] = "ap-south-1";
  FLOE_ASSERT_OK_AND_ASSIGN(S3Options virtual_hosts, S3OptionsFrom(properties, Env({})));
  EXPECT_FALSE(virtual_hosts.path_style);
  EXPECT_EQ(virtual_hosts.region, "ap-south-1");
}

TEST(S3OptionsTest, EnvironmentThenProfileFiles) {
  floe::testing::TempDir dir;
  std::string credentials = (dir.path() / "credentials").string();
  std::string config = (dir.path() / "config").string();
  std::ofstream(credentials)
      << "[default]\naws_access_key_id = DEFKEY\n"
         "aws_secret_access_key = DEFSECRET\n\n"
         "[lake]\naws_access_key_id=LAKEKEY\naws_secret_access_key=LAKESECRET\n"
         "aws_session_token = LAKETOKEN\n";
  std::ofstream(config) << "[default]\nregion = us-east-2\n"
                           "[profile lake]\nregion = eu-central-1\n"
                           "endpoint_url = http://127.0.0.1:4566\n";
  std::map<std::string, std::string> env{{"AWS_SHARED_CREDENTIALS_FILE", credentials},
                                         {"AWS_CONFIG_FILE", config}};

  FLOE_ASSERT_OK_AND_ASSIGN(S3Options by_default, S3OptionsFrom({}, Env(env)));
  EXPECT_EQ(by_default.credentials.access_key_id, "DEFKEY");
  EXPECT_EQ(by_default.credentials.secret_access_key, "DEFSECRET");
  EXPECT_EQ(by_default.region, "us-east-2");
  EXPECT_EQ(by_default.endpoint, "");

  env["AWS_PROFILE"] = "lake";
  FLOE_ASSERT_OK_AND_ASSIGN(S3Options lake, S3OptionsFrom({}, Env(env)));
  EXPECT_EQ(lake.credentials.access_key_id, "LAKEKEY");
  EXPECT_EQ(lake.credentials.session_token, "LAKETOKEN");
  EXPECT_EQ(lake.region, "eu-central-1");
  EXPECT_EQ(lake.endpoint, "http://127.0.0.1:4566");

  // The environment wins over the files, and its keys come as one set.
  env["AWS_ACCESS_KEY_ID"] = "ENVKEY";
  env["AWS_SECRET_ACCESS_KEY"] = "ENVSECRET";
  env["AWS_DEFAULT_REGION"] = "sa-east-1";
  env["AWS_ENDPOINT_URL"] = "http://127.0.0.1:5000";
  FLOE_ASSERT_OK_AND_ASSIGN(S3Options from_env, S3OptionsFrom({}, Env(env)));
  EXPECT_EQ(from_env.credentials.access_key_id, "ENVKEY");
  EXPECT_EQ(from_env.credentials.secret_access_key, "ENVSECRET");
  EXPECT_EQ(from_env.credentials.session_token, "");
  EXPECT_EQ(from_env.region, "sa-east-1");
  EXPECT_EQ(from_env.endpoint, "http://127.0.0.1:5000");
}

TEST(S3OptionsTest, BadValuesNameThePropertyAndNeverTheSecret) {
  auto check = [](Properties properties, std::string_view key) {
    properties["s3.access-key-id"] = "AKID";
    properties["s3.secret-access-key"] = "TOPSECRET";
    auto options = S3OptionsFrom(properties, Env({}));
    ASSERT_FALSE(options.has_value()) << key;
    EXPECT_EQ(options.error().kind(), ErrorKind::kInvalidArgument);
    EXPECT_NE(options.error().message().find(key), std::string::npos) << options.error().message();
    EXPECT_EQ(options.error().message().find("TOPSECRET"), std::string::npos);
  };
  check({{"s3.multipart.part-size-bytes", "1024"}}, "s3.multipart.part-size-bytes");
  check({{"s3.multipart.threshold", "0.5"}}, "s3.multipart.threshold");
  check({{"s3.max-connections", "many"}}, "s3.max-connections");
  check({{"s3.retry.max-attempts", "0"}}, "s3.retry.max-attempts");
  check({{"s3.path-style-access", "yes"}}, "s3.path-style-access");
  check({{"s3.endpoint", "127.0.0.1:9000"}}, "s3.endpoint");

  auto no_secret = S3OptionsFrom({{"s3.access-key-id", "AKID"}}, Env({}));
  ASSERT_FALSE(no_secret.has_value());
  EXPECT_NE(no_secret.error().message().find("no secret access key"), std::string::npos);

  EXPECT_TRUE(IsSecretProperty("s3.secret-access-key"));
  EXPECT_TRUE(IsSecretProperty("s3.session-token"));
  EXPECT_FALSE(IsSecretProperty("s3.access-key-id"));
}

}  // namespace
}  // namespace floe::io
