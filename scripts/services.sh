#!/usr/bin/env bash
# Make sure PostgreSQL, RabbitMQ and Redis answer on localhost; start them when installed but down.
set -euo pipefail
say() { printf '\033[1m[akgen]\033[0m %s\n' "$*"; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

wait_port() {  # name port seconds
  for _ in $(seq 1 "$3"); do port_open "$2" && return 0; sleep 1; done
  say "$1 did not come up on port $2"; return 1
}

if ! port_open 5432; then
  say "starting PostgreSQL"
  if command -v pg_ctlcluster >/dev/null; then
    version=$(ls /etc/postgresql | sort -V | tail -n1)
    for _ in 1 2 3 4 5; do
      pg_ctlcluster --skip-systemctl-redirect "$version" main start 2>/dev/null && break || sleep 2
    done
  else
    say "PostgreSQL is not installed (apt-get install postgresql)"; exit 1
  fi
  wait_port PostgreSQL 5432 30
fi

if ! port_open 5672; then
  say "starting RabbitMQ"
  command -v rabbitmq-server >/dev/null || { say "RabbitMQ is not installed (apt-get install rabbitmq-server)"; exit 1; }
  HOME=/var/lib/rabbitmq rabbitmq-server -detached >/dev/null 2>&1 || true
  HOME=/var/lib/rabbitmq timeout 90 rabbitmqctl await_startup >/dev/null 2>&1 || true
  wait_port RabbitMQ 5672 60
fi

if ! port_open 6379; then
  say "starting Redis"
  command -v redis-server >/dev/null || { say "Redis is not installed (apt-get install redis-server)"; exit 1; }
  mkdir -p /var/lib/redis /var/log/redis
  redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
    --dir /var/lib/redis --logfile /var/log/redis/ci.log
  wait_port Redis 6379 20
fi
say "services up: PostgreSQL :5432, RabbitMQ :5672, Redis :6379"
