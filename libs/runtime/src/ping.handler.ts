import { Injectable } from '@nestjs/common';
import { hostname } from 'node:os';
import type { PingReply } from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';

/** Answers `<service>.health.ping` so the gateway can tell which services are reachable. */
export function pingHandler(service: string, subject: string) {
  @Injectable()
  class PingHandler {
    @RpcHandler(subject)
    ping(): PingReply {
      return { service, instance: `${hostname()}:${process.pid}`, uptimeSeconds: Math.round(process.uptime()) };
    }
  }
  return PingHandler;
}
