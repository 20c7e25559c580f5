// static/sw.js runs as a service worker: its global scope is a ServiceWorkerGlobalScope. The worker
// library types `self` as any worker's scope, so the service worker's members and events are added
// here (type-checked by tsconfig.sw.json only).

interface WorkerGlobalScope {
  readonly registration: ServiceWorkerRegistration;
  readonly clients: Clients;
  skipWaiting(): Promise<void>;
}

interface WorkerGlobalScopeEventMap {
  install: ExtendableEvent;
  activate: ExtendableEvent;
  fetch: FetchEvent;
  message: ExtendableMessageEvent;
}
