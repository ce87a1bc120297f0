#pragma once

// Whether a data or delete file's rows match a row filter, judged from its partition tuple and
// column metrics only (Iceberg's inclusive and strict projections and metrics evaluators): the
// test behind overwrite-by-filter, delete-by-filter and the conflict checks of concurrent commits.
// MightMatch is false only when no row can match; AllMatch is true only when every row matches.
// Errors: a filter that does not bind to the schema, undecodable bounds.

#include <map>
#include <memory>

#include "floe/expr/expression.h"
#include "floe/expr/manifest_evaluator.h"
#include "floe/manifest/data_file.h"
#include "floe/spec/partition_spec.h"
#include "floe/spec/schema.h"
#include "floe/util/error.h"

namespace floe::table {

class FileMatcher {
 public:
  // filter is unbound; it is bound to schema when first used.
  FileMatcher(expr::ExprPtr filter, SchemaPtr schema, bool case_sensitive = true);

  Result<bool> MightMatch(const manifest::DataFile& file, const PartitionSpec& spec);
  Result<bool> AllMatch(const manifest::DataFile& file, const PartitionSpec& spec);
  // Whether a manifest may hold a file that MightMatch, from its partition summaries.
  Result<bool> ManifestMightMatch(const manifest::ManifestFile& manifest,
                                  const PartitionSpec& spec);

  const expr::ExprPtr& filter() const { return filter_; }

 private:
  struct PerSpec {
    expr::ExprPtr inclusive;
    expr::ExprPtr strict;
    std::unique_ptr<expr::ManifestEvaluator> manifests;
  };
  Status Bind();
  Result<PerSpec*> ForSpec(const PartitionSpec& spec);

  expr::ExprPtr filter_;
  SchemaPtr schema_;
  bool case_sensitive_;
  expr::ExprPtr bound_;
  std::map<int32_t, PerSpec> specs_;
};

}  // namespace floe::table
