#pragma once

// Checks JSON bodies against the schemas of the REST OpenAPI document
// (../shared/testdata/iceberg-java/open-api/rest-catalog-open-api.yaml) with Python's
// openapi-schema-validator, an implementation of the document's rules independent of floe's:
// bodies are collected, then validated in one run of testdata/validate_openapi.py. Tests skip
// when Python or the validator is missing.

#include <gtest/gtest.h>

#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "floe/testing/testing.h"
#include "floe/util/json.h"

namespace floe::catalog::rest::openapi {

class OpenApiBodies {
 public:
  void Add(std::string schema, Json body) {
    bodies_.emplace_back(std::move(schema), std::move(body));
  }
  void Add(std::string schema, const std::string& text) {
    auto json = Json::Parse(text);
    ASSERT_TRUE(json) << schema << ": not JSON: " << text;
    Add(std::move(schema), std::move(*json));
  }
  size_t size() const { return bodies_.size(); }

  // The validator's run: exit code 0 when every body is valid, 1 when one is not, 3 when the
  // validator is missing; out holds one line per invalid body.
  floe::testing::CommandRun Validate() const {
    floe::testing::TempDir dir;
    std::string file = (dir.path() / "bodies.jsonl").string();
    {
      std::ofstream out(file);
      for (const auto& [schema, body] : bodies_) {
        Json line = Json::MakeObject();
        line.Set("schema", Json(schema));
        line.Set("body", body);
        out << line.Dump() << "\n";
      }
    }
    std::string script =
        std::string(FLOE_SOURCE_DIR) + "/src/floe/catalog/rest/testdata/validate_openapi.py";
    std::string yaml =
        (floe::testing::TestDataDir() / "iceberg-java" / "open-api" / "rest-catalog-open-api.yaml")
            .string();
    return floe::testing::RunCommand("python3 " + floe::testing::ShellQuote(script) + " " +
                                     floe::testing::ShellQuote(yaml) + " " +
                                     floe::testing::ShellQuote(file) + " 2>&1");
  }

 private:
  std::vector<std::pair<std::string, Json>> bodies_;
};

}  // namespace floe::catalog::rest::openapi

// Validates every body collected; skips when the validator cannot run here.
#define FLOE_EXPECT_VALID_OPENAPI(bodies)                         \
  do {                                                            \
    ::floe::testing::CommandRun floe_run_ = (bodies).Validate();  \
    if (floe_run_.exit_code == 3 || floe_run_.exit_code == 127) { \
      GTEST_SKIP() << "no OpenAPI validator: " << floe_run_.out;  \
    }                                                             \
    EXPECT_EQ(floe_run_.exit_code, 0) << floe_run_.out;           \
  } while (false)
