#pragma once

// What the parts of the query planner share while they compile one query: the session, the
// environment the job is built on, and the lines EXPLAIN shows. A Relation is a planned FROM item
// or query: its stream and the columns expressions may name.

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "floe/sql/plan/planner_session.h"
#include "floe/sql/scalar/scalar_expr.h"
#include "floe/stream/data_stream.h"

namespace floe::sql::plan {

struct Relation {
  stream::DataStream stream;
  // One per stream column, in order, with the qualifier the query names it by.
  std::vector<ScopeColumn> columns;
  // Every source under it ends by itself.
  bool bounded = true;
  // Rows may carry -U/+U/-D kinds.
  bool changelog = false;
  // The column with a watermark behind it (a time attribute), -1 for none.
  int rowtime = -1;
  // The window_end column of a window table function, -1 for none: a GROUP BY on it (streaming)
  // aggregates per window.
  int window_end = -1;

  Scope scope() const { return Scope(columns); }
};

class PlannerContext {
 public:
  PlannerContext(PlannerSession& session, stream::StreamEnvironment& env)
      : session_(session), env_(env) {}

  PlannerSession& session() { return session_; }
  stream::StreamEnvironment& env() { return env_; }
  bool batch() const { return env_.config().mode == stream::RuntimeMode::kBatch; }

  // One EXPLAIN line for an operator; lines come in data-flow order (sources first).
  void Note(std::string line) { notes_.push_back(std::move(line)); }
  const std::vector<std::string>& notes() const { return notes_; }
  // The WITH queries in scope where the planner is, outermost first (with_internal.h).
  std::vector<const CommonTableExpr*>& with_queries() { return with_queries_; }
  // The views being planned, outermost first: a view inside itself is an error.
  std::vector<const SessionView*>& views_in_progress() { return views_in_progress_; }
  // A name for an operator or source of the job: the runtime needs them unique.
  std::string UniqueName(std::string_view base) {
    return std::string(base) + "#" + std::to_string(++names_);
  }
  // The Top-N limit an enclosing query's WHERE puts on a ranking call (found by its OVER
  // clause, which copies of the call share): over_internal.h.
  void SetRankLimit(const OverClause* over, int64_t limit) {
    auto [at, inserted] = rank_limits_.try_emplace(over, limit);
    if (!inserted) at->second = std::min(at->second, limit);
  }
  std::optional<int64_t> RankLimit(const OverClause* over) const {
    auto found = rank_limits_.find(over);
    if (found == rank_limits_.end()) return std::nullopt;
    return found->second;
  }

 private:
  PlannerSession& session_;
  stream::StreamEnvironment& env_;
  std::vector<std::string> notes_;
  std::vector<const CommonTableExpr*> with_queries_;
  std::vector<const SessionView*> views_in_progress_;
  int names_ = 0;
  std::map<const OverClause*, int64_t> rank_limits_;
};

}  // namespace floe::sql::plan
