import { Injectable } from '@nestjs/common';
import { hostname } from 'node:os';
import type { PingCall, PingReply } from '@docintel/contracts';
import { RpcHandler } from '@docintel/messaging';

/** Answers `<service>.health.ping` (contracts `HealthPings`) so the gateway can tell which services are reachable. */
export function pingHandler(service: string, ping: PingCall) {
  @Injectable()
  class PingHandler {
    @RpcHandler(ping)
    ping(): PingReply {
      return { service, instance: `${hostname()}:${process.pid}`, uptimeSeconds: Math.round(process.uptime()) };
    }
  }
  return PingHandler;
}
