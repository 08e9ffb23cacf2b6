# shellcheck shell=bash
# Kortbord provisioning helpers. Source this file; don't run it.
#
#   ensure_build_deps    cargo on PATH (sources ~/.cargo/env when needed); libpq headers,
#                        pkg-config and a C toolchain for linking (apt-get when missing).
#   ensure_database_url  exports DATABASE_URL, a server-level URL (database "postgres"):
#                        1. DATABASE_URL already set: kept as is;
#                        2. a server on 127.0.0.1:5432 that lets user postgres in without a
#                           password: postgres://postgres@127.0.0.1:5432/postgres;
#                        3. otherwise a private cluster in <repo>/.pgdata (trust auth, user
#                           postgres, 127.0.0.1 only), created/started as needed, PostgreSQL
#                           installed with apt-get when initdb is missing.
#   kortbord_pg_stop     stops the private cluster in .pgdata, if running.
#
# Environment:
#   DATABASE_URL            kept when set
#   KORTBORD_PG_PROBE_HOST  host probed for an existing server (default 127.0.0.1)
#   KORTBORD_PG_PROBE_PORT  port probed for an existing server (default 5432)
#   KORTBORD_PG_PORT        port for the private cluster (default: the port it used last, else
#                           55432; the next free port is taken when that one is busy)
#
# Works as root with no stdin (CI): initdb/pg_ctl refuse root, so they run as the `postgres`
# system user, which owns .pgdata. Prints one line per decision on stderr, nothing else on success.
# After ensure_database_url, KORTBORD_PG_STARTED=1 when it started the private cluster itself.

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  echo "scripts/lib/postgres.sh is a library: source it from bash" >&2
  exit 2
fi

_kb_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)"
_kb_pg_user=""     # user that runs initdb/pg_ctl ("" = the current user)
_kb_pg_bindir=""
_kb_pgroot=""      # physical path of .pgdata
_kb_lock_fd=""
KORTBORD_PG_STARTED="${KORTBORD_PG_STARTED:-}"

_kb_log() { printf 'kortbord: %s\n' "$*" >&2; }
_kb_err() { printf 'kortbord: error: %s\n' "$*" >&2; return 1; }

# URL with any password masked, for logs.
_kb_redact() { printf '%s' "$1" | sed -E 's#^([a-zA-Z0-9+.-]+://[^:/@]*):[^@/]*@#\1:***@#'; }

_kb_is_root() { [[ "$(id -u)" -eq 0 ]]; }

_kb_as_root() {
  if _kb_is_root; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    _kb_err "root is needed to run: $* (no sudo available)"
  fi
}

# _kb_apt_install PKG... : apt-get update (once per process) + install, output kept in a log
# that is shown only on failure.
_kb_apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    _kb_err "need $* but apt-get is not available; install them with your package manager"
    return 1
  fi
  local log
  log="$(mktemp "${TMPDIR:-/tmp}/kortbord-apt.XXXXXX")" || return 1
  local -a apt=(env DEBIAN_FRONTEND=noninteractive apt-get -q -o DPkg::Lock::Timeout=300)
  if [[ -z "${_KB_APT_UPDATED:-}" ]]; then
    if ! _kb_as_root "${apt[@]}" update >>"$log" 2>&1 </dev/null; then
      cat "$log" >&2
      rm -f "$log"
      _kb_err "apt-get update failed (log above)"
      return 1
    fi
    _KB_APT_UPDATED=1
  fi
  if ! _kb_as_root "${apt[@]}" install -y --no-install-recommends "$@" >>"$log" 2>&1 </dev/null; then
    cat "$log" >&2
    rm -f "$log"
    _kb_err "apt-get install $* failed (log above)"
    return 1
  fi
  rm -f "$log"
}

ensure_build_deps() {
  if ! command -v cargo >/dev/null 2>&1 && [[ -f "${HOME:-}/.cargo/env" ]]; then
    # shellcheck disable=SC1091
    . "$HOME/.cargo/env"
    _kb_log "cargo: using $HOME/.cargo/env"
  fi
  if ! command -v cargo >/dev/null 2>&1; then
    _kb_err "cargo not found; install Rust (https://rustup.rs) and retry"
    return 1
  fi

  local -a pkgs=()
  if ! pkg-config --exists libpq >/dev/null 2>&1 || [[ ! -f /usr/include/postgresql/libpq-fe.h ]]; then
    pkgs+=(libpq-dev pkg-config)
  fi
  # rustc links through `cc`; without recommends, gcc alone lacks the C runtime files.
  if ! command -v cc >/dev/null 2>&1; then
    pkgs+=(gcc libc6-dev)
  fi
  if ((${#pkgs[@]})); then
    _kb_log "build deps: installing ${pkgs[*]} (apt-get)"
    _kb_apt_install "${pkgs[@]}" || return 1
  fi
}

# _kb_tcp_open HOST PORT : something accepts TCP connections there.
_kb_tcp_open() {
  # shellcheck disable=SC2016
  timeout 3 bash -c 'exec 3<>"/dev/tcp/$1/$2"' _ "$1" "$2" >/dev/null 2>&1
}

# _kb_pg_answers HOST PORT : a PostgreSQL server accepts connections there.
_kb_pg_answers() {
  if command -v pg_isready >/dev/null 2>&1; then
    pg_isready -q -h "$1" -p "$2" -t 3 >/dev/null 2>&1
  else
    _kb_tcp_open "$1" "$2"
  fi
}

# _kb_pg_run CMD... : run a PostgreSQL server binary as the cluster owner, from /.
_kb_pg_run() {
  if [[ -z "$_kb_pg_user" ]]; then
    "$@"
  elif command -v runuser >/dev/null 2>&1; then
    (cd / && runuser -u "$_kb_pg_user" -- "$@")
  else
    # shellcheck disable=SC2016
    (cd / && su -s /bin/sh -c 'exec "$0" "$@"' "$_kb_pg_user" -- "$@")
  fi
}

# Directory holding initdb/pg_ctl, preferring the version of an existing cluster.
_kb_find_pg_bindir() {
  local want="" found="" d
  if [[ -f "$_kb_pgroot/data/PG_VERSION" ]]; then
    want="$(<"$_kb_pgroot/data/PG_VERSION")"
    if [[ -x "/usr/lib/postgresql/$want/bin/initdb" ]]; then
      echo "/usr/lib/postgresql/$want/bin"
      return 0
    fi
  fi
  if command -v initdb >/dev/null 2>&1; then
    d="$(dirname "$(readlink -f "$(command -v initdb)")")"
    if [[ -x "$d/pg_ctl" ]]; then
      echo "$d"
      return 0
    fi
  fi
  for d in /usr/lib/postgresql/*/bin; do
    [[ -x "$d/initdb" && -x "$d/pg_ctl" ]] && found="$d"$'\n'"$found"
  done
  if [[ -n "$found" ]]; then
    printf '%s' "$found" | sort -V | tail -n 1
    return 0
  fi
  return 1
}

# Sets _kb_pg_user and _kb_pgroot; creates .pgdata (or, when root and the postgres user can't
# reach the repository, a directory in /var/tmp that .pgdata links to).
_kb_prepare_pgroot() {
  local link="$_kb_root/.pgdata"
  if ! _kb_is_root; then
    _kb_pg_user=""
    mkdir -p "$link" || return 1
    _kb_pgroot="$(cd -P "$link" && pwd -P)" || return 1
    return 0
  fi

  if ! id -u postgres >/dev/null 2>&1; then
    _kb_log "creating system user postgres (initdb refuses to run as root)"
    useradd --system --user-group --home-dir /var/lib/postgresql --no-create-home \
      --shell /bin/bash postgres || return 1
  fi
  _kb_pg_user=postgres

  if [[ -L "$link" && ! -e "$link" ]]; then
    mkdir -p "$(readlink "$link")" || return 1   # dangling link: /var/tmp was cleaned
  fi
  if [[ ! -e "$link" ]] || { [[ -d "$link" && ! -L "$link" ]] && [[ -z "$(ls -A "$link")" ]]; }; then
    if ! _kb_pg_run test -x "$_kb_root"; then
      local real
      real="/var/tmp/kortbord-pgdata-$(printf '%s' "$_kb_root" | cksum | cut -d' ' -f1)"
      mkdir -p "$real" || return 1
      rmdir "$link" 2>/dev/null || true
      ln -s "$real" "$link" || return 1
      _kb_log "user postgres cannot reach $_kb_root; .pgdata links to $real"
    else
      mkdir -p "$link" || return 1
    fi
  fi
  _kb_pgroot="$(cd -P "$link" && pwd -P)" || return 1

  # An existing cluster keeps its owner (unless it is root, which PostgreSQL refuses).
  if [[ -d "$_kb_pgroot/data" ]]; then
    local owner
    owner="$(stat -c %U "$_kb_pgroot/data")"
    if [[ "$owner" == root || "$owner" == UNKNOWN ]]; then
      chown -R postgres: "$_kb_pgroot/data" || return 1
    else
      _kb_pg_user="$owner"
    fi
  fi
  chown "$_kb_pg_user:" "$_kb_pgroot" || return 1
  if ! _kb_pg_run test -w "$_kb_pgroot"; then
    _kb_err "user $_kb_pg_user cannot write to $_kb_pgroot"
    return 1
  fi
}

# Serialises concurrent callers (scripts/serve and scripts/test at once) on .pgdata/.lock.
_kb_lock() {
  exec {_kb_lock_fd}>>"$_kb_pgroot/.lock" || return 1
  command -v flock >/dev/null 2>&1 || return 0
  if ! flock -w 300 "$_kb_lock_fd"; then
    _kb_err "timed out waiting for $_kb_pgroot/.lock"
    return 1
  fi
}

_kb_unlock() {
  if [[ -n "$_kb_lock_fd" ]]; then
    exec {_kb_lock_fd}>&-
    _kb_lock_fd=""
  fi
}

# Port of the running cluster (line 4 of postmaster.pid).
_kb_running_port() {
  sed -n 4p "$_kb_pgroot/data/postmaster.pid" 2>/dev/null
}

_kb_write_conf() {
  local port="$1" sockdir="$_kb_pgroot/run"
  mkdir -p "$sockdir" || return 1
  [[ -n "$_kb_pg_user" ]] && chown "$_kb_pg_user:" "$sockdir"
  # Unix socket paths are limited to 107 bytes; the app only uses TCP, so drop the socket then.
  if ((${#sockdir} + 16 > 107)); then sockdir=""; fi
  {
    echo "# Written by scripts/lib/postgres.sh before each start."
    echo "listen_addresses = '127.0.0.1'"
    echo "port = $port"
    echo "unix_socket_directories = '${sockdir//\'/\'\'}'"
    echo "max_connections = 300"
  } >"$_kb_pgroot/data/kortbord.conf" || return 1
  [[ -n "$_kb_pg_user" ]] && chown "$_kb_pg_user:" "$_kb_pgroot/data/kortbord.conf"
  return 0
}

_kb_private_cluster() {
  local data="$_kb_pgroot/data" port status

  if [[ ! -f "$data/PG_VERSION" ]]; then
    if ! _kb_pg_bindir="$(_kb_find_pg_bindir)"; then
      _kb_log "no PostgreSQL server binaries; installing postgresql (apt-get)"
      _kb_apt_install postgresql || return 1
      _kb_pg_bindir="$(_kb_find_pg_bindir)" || { _kb_err "initdb still not found after installing postgresql"; return 1; }
    fi
    if ! LC_ALL=C _kb_pg_run "$_kb_pg_bindir/initdb" -D "$data" -U postgres -A trust \
        -E UTF8 --no-locale >"$_kb_pgroot/initdb.log" 2>&1; then
      cat "$_kb_pgroot/initdb.log" >&2
      _kb_err "initdb failed (log above); remove $_kb_root/.pgdata to start over"
      return 1
    fi
    echo "include_if_exists = 'kortbord.conf'" >>"$data/postgresql.conf" || return 1
    _kb_log "created a private PostgreSQL $(<"$data/PG_VERSION") cluster in .pgdata"
  else
    if ! _kb_pg_bindir="$(_kb_find_pg_bindir)"; then
      _kb_log "no PostgreSQL server binaries; installing postgresql (apt-get)"
      _kb_apt_install postgresql || return 1
      _kb_pg_bindir="$(_kb_find_pg_bindir)" || { _kb_err "pg_ctl still not found after installing postgresql"; return 1; }
    fi
  fi

  status=0
  _kb_pg_run "$_kb_pg_bindir/pg_ctl" -D "$data" status >/dev/null 2>&1 || status=$?
  if [[ $status -eq 0 ]]; then
    port="$(_kb_running_port)"
    if [[ "$port" =~ ^[0-9]+$ ]] && _kb_pg_answers 127.0.0.1 "$port"; then
      DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
      _kb_log "private cluster in .pgdata already running; DATABASE_URL=$DATABASE_URL"
      return 0
    fi
    _kb_err "the private cluster in .pgdata runs but does not answer on 127.0.0.1:${port:-?} (see .pgdata/postgres.log)"
    return 1
  fi

  # Not running: choose a port (the requested one, else the last one used, else 55432).
  port="${KORTBORD_PG_PORT:-}"
  if [[ -z "$port" ]]; then
    port="$(sed -nE 's/^port = ([0-9]+)$/\1/p' "$data/kortbord.conf" 2>/dev/null | tail -n 1)"
  fi
  port="${port:-55432}"
  local tries=0
  while _kb_tcp_open 127.0.0.1 "$port"; do
    tries=$((tries + 1))
    if ((tries > 100)); then
      _kb_err "no free port found from ${KORTBORD_PG_PORT:-55432} upwards"
      return 1
    fi
    port=$((port + 1))
  done
  _kb_write_conf "$port" || return 1

  # Close the lock fd for pg_ctl, or the server would inherit it and hold the lock forever.
  if ! _kb_pg_run "$_kb_pg_bindir/pg_ctl" -D "$data" -l "$_kb_pgroot/postgres.log" -w -t 120 \
      start >/dev/null 2>&1 </dev/null {_kb_lock_fd}>&-; then
    tail -n 30 "$_kb_pgroot/postgres.log" >&2 2>/dev/null || true
    _kb_err "could not start the private cluster in .pgdata (log above)"
    return 1
  fi
  KORTBORD_PG_STARTED=1
  DATABASE_URL="postgres://postgres@127.0.0.1:$port/postgres"
  _kb_log "started the private cluster in .pgdata; DATABASE_URL=$DATABASE_URL"
}

ensure_database_url() {
  if [[ -n "${DATABASE_URL:-}" ]]; then
    export DATABASE_URL
    _kb_log "database: DATABASE_URL is set; using $(_kb_redact "$DATABASE_URL")"
    return 0
  fi

  local host="${KORTBORD_PG_PROBE_HOST:-127.0.0.1}" port="${KORTBORD_PG_PROBE_PORT:-5432}"
  local url="postgres://postgres@$host:$port/postgres"
  if _kb_pg_answers "$host" "$port"; then
    if command -v psql >/dev/null 2>&1 &&
        ! PGCONNECT_TIMEOUT=5 psql -X -w -q -At -d "$url" -c 'select 1' >/dev/null 2>&1 </dev/null; then
      _kb_log "database: the server on $host:$port refuses user postgres without a password (set DATABASE_URL to use it); using a private cluster"
    else
      export DATABASE_URL="$url"
      _kb_log "database: PostgreSQL answers on $host:$port; DATABASE_URL=$DATABASE_URL"
      return 0
    fi
  fi

  _kb_prepare_pgroot || return 1
  _kb_lock || { _kb_unlock; return 1; }
  local rc=0
  _kb_private_cluster || rc=$?
  _kb_unlock
  [[ $rc -eq 0 ]] && export DATABASE_URL
  return "$rc"
}

kortbord_pg_stop() {
  [[ -f "$_kb_root/.pgdata/data/PG_VERSION" ]] || return 0
  _kb_prepare_pgroot || return 1
  _kb_pg_bindir="$(_kb_find_pg_bindir)" || return 1
  if _kb_pg_run "$_kb_pg_bindir/pg_ctl" -D "$_kb_pgroot/data" status >/dev/null 2>&1; then
    _kb_pg_run "$_kb_pg_bindir/pg_ctl" -D "$_kb_pgroot/data" -m fast -w stop >/dev/null || return 1
    _kb_log "stopped the private cluster in .pgdata"
  fi
}
