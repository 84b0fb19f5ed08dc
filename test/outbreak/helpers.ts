// Starts the real app on 127.0.0.1:0 with an outbreak service (or none), a temp key file and an in-memory limiter.
import type { OutbreakService } from "../../server/services/outbreak-service.ts";
import { startAppOver } from "../server/helpers.ts";

export function startOutbreakServer(outbreak: OutbreakService | undefined) {
  return startAppOver({ outbreak });
}
