#pragma once

// For the Glue catalog tests: catalog properties that reach moto (Glue and S3 on one port, see
// testing/s3_server.h) with a bucket as warehouse, unique database names, and the aws CLI as an
// independent reader of Glue.

#include <fmt/format.h>

#include <string>

#include "floe/catalog/catalog.h"
#include "floe/io/s3/s3_test_support.h"
#include "floe/testing/testing.h"
#include "floe/util/json.h"
#include "floe/util/uuid.h"

namespace floe::catalog::gluetest {

inline StringMap MotoProperties(const std::string& glue_endpoint, const std::string& bucket) {
  const std::string& moto = floe::testing::S3Server::Get().endpoint();
  return {{"glue.endpoint", glue_endpoint},        {"client.region", "us-east-1"},
          {"warehouse", "s3://" + bucket + "/wh"}, {"s3.endpoint", moto},
          {"s3.access-key-id", "test-key"},        {"s3.secret-access-key", "test-secret"}};
}

// A Glue database name no other test of this moto server uses.
inline std::string UniqueDatabase(std::string_view prefix) {
  std::string id = RandomUuid().substr(0, 8);
  return fmt::format("{}_{}", prefix, id);
}

// `aws glue <command>` against endpoint, its JSON answer parsed; an error names the command.
inline Result<Json> AwsGlue(const std::string& endpoint, const std::string& command) {
  floe::testing::CommandRun run = floe::testing::RunCommand(
      "AWS_ACCESS_KEY_ID=test-key AWS_SECRET_ACCESS_KEY=test-secret AWS_DEFAULT_REGION=us-east-1 "
      "aws --output json --endpoint-url " +
      floe::testing::ShellQuote(endpoint) + " glue " + command);
  if (run.exit_code != 0) return InvalidArgument("aws glue {}: {}", command, run.err);
  return Json::Parse(run.out);
}

inline bool AwsCliInstalled() { return floe::testing::RunCommand("command -v aws").exit_code == 0; }

}  // namespace floe::catalog::gluetest
