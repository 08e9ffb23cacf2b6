# shellcheck shell=bash
# Helpers shared by the scripts that start their own service nodes (scripts/faults, scripts/ha).
# Source after scripts/lib/postgres.sh; don't run.
#
#   build_release WORK   builds the service and the load generator (release) and copies them to
#                        WORK/bin: a build started elsewhere during the run cannot swap them.
#   free_port VAR        sets VAR to a port of 127.0.0.1 nothing listens on and that this run has
#                        not handed out yet.
#   http_code URL ARGS   the status of a request (curl ARGS), or 000 when nothing answered.
#   need_postgres_user   as root, makes sure the postgres user exists (PostgreSQL and Patroni
#                        refuse to run as root) and sets _kb_pg_user for _kb_pg_run.

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  echo "scripts/lib/nodes.sh is a library: source it from bash" >&2
  exit 2
fi

build_release() {
  local work="$1" target="${CARGO_TARGET_DIR:-target}"
  cargo build --release --locked -p kortbord-api --bin kortbord -p kortbord-e2e --bin loadgen || return 1
  mkdir -p "$work/bin" || return 1
  cp "$target/release/kortbord" "$target/release/loadgen" "$work/bin/"
}

declare -A _kb_ports_taken=()
free_port() {
  local candidate tries=0
  while ((tries < 200)); do
    tries=$((tries + 1))
    candidate=$((20000 + RANDOM % 40000))
    [[ -n "${_kb_ports_taken[$candidate]:-}" ]] && continue
    if ! _kb_tcp_open 127.0.0.1 "$candidate"; then
      _kb_ports_taken[$candidate]=1
      printf -v "$1" '%s' "$candidate"
      return 0
    fi
  done
  _kb_err "no free port found"
}

http_code() {
  local url="$1"
  shift
  curl -s -o /dev/null -w '%{http_code}' --max-time 5 "$@" "$url" 2>/dev/null || true
}

need_postgres_user() {
  [[ "$(id -u)" -eq 0 ]] || return 0
  if ! id -u postgres >/dev/null 2>&1; then
    useradd --system --user-group --home-dir /var/lib/postgresql --no-create-home --shell /bin/bash postgres || return 1
  fi
  _kb_pg_user=postgres
}
