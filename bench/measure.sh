# Sourced by the benchmark scripts.
#
# bench_setup DEFAULT_ROWS INPUT [ROWS] [RUNS]: the settings every script shares, from its first two
# arguments or the environment: rows (ROWS, else DEFAULT_ROWS), runs (RUNS, else 3), shared
# (SHARED, else ../shared), floe (FLOE, else build/release/floe), work (WORK, else a new temporary
# folder) and inputs (INPUTS, else make-inputs run into $work for $rows rows unless $inputs/INPUT
# is there already). Needs $here, the checkout.
bench_setup() {
  local default_rows=$1 input=$2
  rows=${3:-${ROWS:-$default_rows}}
  runs=${4:-${RUNS:-3}}
  shared=${SHARED:-$here/../shared}
  floe=${FLOE:-$here/build/release/floe}
  work=${WORK:-$(mktemp -d)}
  inputs=${INPUTS:-$work/inputs-$rows}
  [ -f "$inputs/$input" ] || "$shared/bench/make-inputs" "$inputs" "$rows" >/dev/null
}

# measure CMD...: runs CMD $runs times (with $work as scratch) and
# prints the best wall seconds, the peak RSS (MB) and the CPU seconds (user + system: steadier than
# wall time on a busy machine) of that run.
measure() {
  local best="" best_mem="" best_cpu=""
  for _ in $(seq "$runs"); do
    if [ -n "${before_each:-}" ]; then $before_each; fi
    /usr/bin/time -v "$@" >/dev/null 2>"$work/time.txt"
    local wall mem cpu
    wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n=split($2,p,":"); s=0; for(i=1;i<=n;i++) s=s*60+p[i]; print s}' "$work/time.txt")
    mem=$(awk -F': ' '/Maximum resident/ {printf "%.0f", $2/1024}' "$work/time.txt")
    cpu=$(awk -F': ' '/(User|System) time/ {s+=$2} END {printf "%.2f", s}' "$work/time.txt")
    if [ -z "$best" ] || awk "BEGIN{exit !($wall < $best)}"; then best=$wall; best_mem=$mem; best_cpu=$cpu; fi
  done
  echo "$best $best_mem $best_cpu"
}
