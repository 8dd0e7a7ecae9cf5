#!/usr/bin/env node
// Kubernetes manifests for the portal, generated from config/services.json (the processes, their ports
// and which are behind the gateway) and config/remotes.docker.json (the remotes the shell loads), so a
// new service, worker or remote is one entry there and one run of this script:
//
//   node scripts/k8s-manifests.mjs            writes docker/k8s/*.yaml
//   node scripts/k8s-manifests.mjs --check    exits 1 naming every file that differs from what it would write
//
// Plain Node, no dependencies (a small YAML writer below). `generateManifests(options)` is also used by
// scripts/containers-test.mjs to run the same manifests under `podman play kube`.
//
// One file on purpose: the scripts are plain Node with no build step, and every manifest kind here is one
// function reading the same two tables; the YAML writer is the only helper, and it serves only them.
import { existsSync, readFileSync, readdirSync, writeFileSync, mkdirSync, unlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { alertRuleGroups, SCRAPE_INTERVAL } from './monitoring.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const outDir = join(root, 'docker/k8s');

/** The BullMQ queue each worker takes its jobs from (prefix 'portal'): what KEDA scales it on. */
const WORKER_QUEUES = {
  'requests-worker': 'request-console',
  'iris-worker': 'iris-pdf',
  'reportbuilder-worker': 'reportbuilder-pdf',
};
/** Processes that need their own writable storage, shared between the service and its worker. */
const STORAGE = {
  identity: 'portal-identity-var',
  locator: 'portal-locator-var',
  requests: 'portal-requests-var',
  'requests-worker': 'portal-requests-var',
  reportbuilder: 'portal-requests-var',
  'reportbuilder-worker': 'portal-requests-var',
  iris: 'portal-iris-var',
  'iris-worker': 'portal-iris-var',
};
/** Workers that run Chromium: more memory. */
const CHROMIUM = new Set(['iris-worker', 'reportbuilder-worker']);
/** Remote names (config/remotes*.json) -> the workspace folder of the remote. */
const REMOTE_FOLDERS = {
  servicesAdmin: 'mf-services-admin',
  locator: 'mf-locator',
  requestsAdmin: 'mf-requests-admin',
  iris: 'mf-iris',
  reportBuilder: 'mf-reportbuilder',
  avsEditor: 'mf-avs-editor',
};
/** The port a static artefact's container answers /health and /ready on (docker/publish-static.mjs). */
const PUBLISHER_PORT = 8081;
/**
 * The PostgreSQL of the portal (database.yaml): a CloudNativePG cluster. CNPG makes the Services
 * `<name>-rw` (the primary) and `<name>-ro` (the replicas) and the Secret `<name>-app` (the owner's
 * username, password and `uri`, which points at `-rw`).
 */
const DB_CLUSTER = 'portal-db';
/** Processes with a read pool of their own (DATABASE_READ_URL: the replicas, `-ro`). */
const READ_REPLICA_USERS = new Set(['locator']);
/**
 * Sizing at 10 M addresses (docs/operations.md "Sizing at 10 M addresses"). ESTIMATED until the 10 M run's
 * figures land in bench/README.md: the geo schema measured at 1.64 KB per address (165 MB for 101 003
 * addresses with their parcels, buildings, POIs and farms, indexes included) × 10 M = 16.5 GB; the
 * requests at 1.98 GB per million (portal_bench_requests) × 5 M = 9.9 GB; with the WAL kept apart.
 */
const DB_SIZING = {
  storage: '80Gi',
  walStorage: '20Gi',
  cpu: '2',
  memory: '8Gi',
  /**
   * 10 per pool (node-postgres' default) × the processes at the HPAs' and KEDA's maxima: 44 service pods
   * + 16 worker pods = 600, plus a listener per request-console worker and CNPG's own; a replica needs at
   * least the primary's value.
   */
  maxConnections: '700',
};

const envName = (name) => name.toUpperCase().replace(/-/g, '_');
const labels = (name, tier) => ({
  'app.kubernetes.io/name': name,
  'app.kubernetes.io/part-of': 'portal',
  'portal/tier': tier,
});

/**
 * The manifests as { file: [documents] }.
 * options: image(name) -> image reference; hostNetwork (podman: every pod on the host's network);
 * port(name, port) -> the port a process listens on (podman: shifted off the ports a local `npm start`
 * uses); serviceHost(name) -> the host name other pods reach a service by; replicas(n) -> a Deployment's
 * replicas (podman: 1, the pods share the host's ports).
 */
export function generateManifests(options = {}) {
  const image = options.image ?? ((name) => `portal-${name}:latest`);
  const port = options.port ?? ((_name, p) => p);
  const serviceHost = options.serviceHost ?? ((name) => name);
  const hostNetwork = options.hostNetwork ?? false;
  const replicas = options.replicas ?? ((n) => n);
  // 'cnpg': DATABASE_URL from the CloudNativePG cluster's Secret (database.yaml); 'secret': from
  // portal-secrets (a managed PostgreSQL, or the containers test's local one), no read replica.
  const database = options.database ?? 'cnpg';
  const table = JSON.parse(readFileSync(join(root, 'config/services.json'), 'utf8'));
  const remotes = JSON.parse(readFileSync(join(root, 'config/remotes.docker.json'), 'utf8'));
  const files = {};

  for (const r of remotes.remotes) {
    if (!REMOTE_FOLDERS[r.name])
      throw new Error(`remote '${r.name}' has no folder in scripts/k8s-manifests.mjs`);
  }
  for (const s of table.services) {
    if (!s.routes && !WORKER_QUEUES[s.name])
      throw new Error(`worker '${s.name}' has no queue in scripts/k8s-manifests.mjs (WORKER_QUEUES)`);
  }

  const databaseUrlEnv =
    database === 'cnpg'
      ? { name: 'DATABASE_URL', valueFrom: { secretKeyRef: { name: `${DB_CLUSTER}-app`, key: 'uri' } } }
      : {
          name: 'DATABASE_URL',
          valueFrom: { secretKeyRef: { name: 'portal-secrets', key: 'DATABASE_URL' } },
        };
  // The read replicas: the same owner through `-ro` (Kubernetes expands $(VAR) of variables set before).
  const readReplicaEnv =
    database === 'cnpg'
      ? [
          {
            name: 'DATABASE_USER',
            valueFrom: { secretKeyRef: { name: `${DB_CLUSTER}-app`, key: 'username' } },
          },
          {
            name: 'DATABASE_PASSWORD',
            valueFrom: { secretKeyRef: { name: `${DB_CLUSTER}-app`, key: 'password' } },
          },
          {
            name: 'DATABASE_READ_URL',
            value: `postgresql://$(DATABASE_USER):$(DATABASE_PASSWORD)@${DB_CLUSTER}-ro:5432/portal`,
          },
        ]
      : [];
  const commonEnv = [
    { name: 'NODE_ENV', value: 'production' },
    { name: 'HOST', value: hostNetwork ? '127.0.0.1' : '0.0.0.0' },
    { name: 'VAR_DIR', value: '/var/lib/portal' },
    { name: 'JWT_PUBLIC_KEY_FILE', value: '/keys/jwt-public.pem' },
    { name: 'PUBLIC_URL', valueFrom: { configMapKeyRef: { name: 'portal-settings', key: 'PUBLIC_URL' } } },
    {
      name: 'COOKIE_SECURE',
      valueFrom: { configMapKeyRef: { name: 'portal-settings', key: 'COOKIE_SECURE' } },
    },
    databaseUrlEnv,
    { name: 'REDIS_URL', valueFrom: { secretKeyRef: { name: 'portal-secrets', key: 'REDIS_URL' } } },
  ];
  const probes = (p, startSeconds = 5) => ({
    readinessProbe: {
      httpGet: { path: '/ready', port: p },
      initialDelaySeconds: startSeconds,
      periodSeconds: 5,
      failureThreshold: 3,
    },
    livenessProbe: {
      httpGet: { path: '/health', port: p },
      initialDelaySeconds: 20,
      periodSeconds: 10,
      failureThreshold: 3,
    },
  });
  const podSecurity = { runAsNonRoot: true, runAsUser: 1000, runAsGroup: 1000, fsGroup: 1000 };
  const containerSecurity = { allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } };

  const deployment = (name, tier, { replicas: count, container, volumes, strategy }) => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, labels: labels(name, tier) },
    spec: {
      replicas: replicas(count),
      selector: { matchLabels: { 'app.kubernetes.io/name': name } },
      strategy: strategy ?? { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } },
      template: {
        metadata: {
          labels: labels(name, tier),
          ...(container.ports && tier !== 'web'
            ? {
                annotations: {
                  'prometheus.io/scrape': 'true',
                  'prometheus.io/port': String(
                    (container.ports.find((p) => p.name === 'metrics') ?? container.ports[0]).containerPort,
                  ),
                  'prometheus.io/path': '/metrics',
                },
              }
            : {}),
        },
        spec: {
          ...(hostNetwork ? { hostNetwork: true } : {}),
          securityContext: podSecurity,
          terminationGracePeriodSeconds: tier === 'worker' ? 60 : 30,
          containers: [
            {
              name,
              image: image(name),
              imagePullPolicy: 'IfNotPresent',
              securityContext: containerSecurity,
              // With the host's network a container's ports are the process's own (podman refuses port mappings).
              ...(hostNetwork ? { ...container, ports: undefined } : container),
            },
          ],
          ...(volumes.length ? { volumes } : {}),
        },
      },
    },
  });
  const service = (name, p) => ({
    apiVersion: 'v1',
    kind: 'Service',
    metadata: { name, labels: labels(name, 'service') },
    spec: { selector: { 'app.kubernetes.io/name': name }, ports: [{ name: 'http', port: p, targetPort: p }] },
  });
  const hpa = (name, min, max) => ({
    apiVersion: 'autoscaling/v2',
    kind: 'HorizontalPodAutoscaler',
    metadata: { name, labels: labels(name, 'service') },
    spec: {
      scaleTargetRef: { apiVersion: 'apps/v1', kind: 'Deployment', name },
      minReplicas: min,
      maxReplicas: max,
      metrics: [
        {
          type: 'Resource',
          resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: 70 } },
        },
      ],
    },
  });
  const pdb = (name, tier, spec) => ({
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata: { name, labels: labels(name, tier) },
    spec: { ...spec, selector: { matchLabels: { 'app.kubernetes.io/name': name } } },
  });
  const keysVolume = (withPrivate) => ({
    name: 'keys',
    secret: {
      secretName: 'portal-jwt',
      // Said, though false is the default: podman 4.3's play kube dereferences it.
      optional: false,
      items: [
        { key: 'jwt-public.pem', path: 'jwt-public.pem' },
        ...(withPrivate ? [{ key: 'jwt-private.pem', path: 'jwt-private.pem' }] : []),
      ],
    },
  });

  // Settings, the remotes list and the shared storage.
  files['config.yaml'] = [
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'portal-settings', labels: labels('portal-settings', 'config') },
      data: { PUBLIC_URL: 'https://portal.example.org', COOKIE_SECURE: 'true' },
    },
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'portal-remotes', labels: labels('portal-remotes', 'config') },
      data: { 'remotes.json': `${JSON.stringify(remotes, null, 2)}\n` },
    },
  ];
  const claims = [...new Set(['portal-web', ...Object.values(STORAGE)])];
  files['storage.yaml'] = claims.map((claim) => ({
    apiVersion: 'v1',
    kind: 'PersistentVolumeClaim',
    metadata: { name: claim, labels: labels(claim, 'storage') },
    spec: {
      accessModes: ['ReadWriteMany'],
      resources: { requests: { storage: claim === 'portal-web' ? '1Gi' : '10Gi' } },
    },
  }));
  files['secrets.example.yaml'] = [
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'portal-secrets', labels: labels('portal-secrets', 'config') },
      type: 'Opaque',
      stringData: {
        // Only with a managed PostgreSQL instead of database.yaml (generateManifests({ database: 'secret' })).
        DATABASE_URL: 'postgres://portal:change-me@postgres.example.org:5432/portal',
        REDIS_URL: 'redis://redis.example.org:6379',
        REDIS_ADDRESS: 'redis.example.org:6379',
      },
    },
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'portal-jwt', labels: labels('portal-jwt', 'config') },
      type: 'Opaque',
      stringData: {
        'jwt-private.pem':
          '-----BEGIN PRIVATE KEY-----\n(kubectl create secret generic portal-jwt --from-file=...)\n-----END PRIVATE KEY-----\n',
        'jwt-public.pem': '-----BEGIN PUBLIC KEY-----\n(see docker/README.md)\n-----END PUBLIC KEY-----\n',
      },
    },
  ];
  files['migrate-job.yaml'] = [
    {
      apiVersion: 'batch/v1',
      kind: 'Job',
      metadata: { name: 'portal-migrate', labels: labels('portal-migrate', 'job') },
      spec: {
        // The database may still be starting (a new CNPG cluster takes a minute or two): tries again.
        backoffLimit: 10,
        template: {
          metadata: { labels: labels('portal-migrate', 'job') },
          spec: {
            restartPolicy: 'OnFailure',
            securityContext: podSecurity,
            containers: [
              {
                name: 'migrate',
                image: image('identity'),
                imagePullPolicy: 'IfNotPresent',
                securityContext: containerSecurity,
                command: ['node', 'libs/db/dist/cli.js', 'migrate'],
                env: [databaseUrlEnv],
                resources: {
                  requests: { cpu: '100m', memory: '128Mi' },
                  limits: { cpu: '1', memory: '512Mi' },
                },
              },
            ],
          },
        },
      },
    },
  ];

  if (database === 'cnpg') files['database.yaml'] = databaseManifests();
  files['monitoring.yaml'] = monitoringManifests();

  // The gateway: the one portal URL, behind the Ingress.
  const gw = table.gateway;
  const gwPort = port(gw.name, gw.port);
  // The gateway's /metrics on a port of its own (its own port is public): named `metrics` for its PodMonitor.
  const gwMetricsPort = port(`${gw.name}-metrics`, gw.metricsPort);
  files['gateway.yaml'] = [
    deployment('gateway', 'service', {
      replicas: 2,
      container: {
        ports: [
          { name: 'http', containerPort: gwPort },
          { name: 'metrics', containerPort: gwMetricsPort },
        ],
        env: [
          ...commonEnv.filter((e) => !['DATABASE_URL', 'VAR_DIR', 'JWT_PUBLIC_KEY_FILE'].includes(e.name)),
          { name: 'PORT', value: String(gwPort) },
          { name: 'METRICS_PORT', value: String(gwMetricsPort) },
          { name: 'SHELL_DIST', value: '/srv/web/shell' },
          { name: 'GATEWAY_REMOTES_FILE', value: '/etc/portal/remotes/remotes.json' },
          { name: 'GATEWAY_TRUST_PROXY', value: 'true' },
          // As the services (below): the Ingress keeps sending to a stopping pod for a moment.
          { name: 'SHUTDOWN_DRAIN_MIN_MS', value: '5000' },
          { name: 'SHUTDOWN_GRACE_MS', value: '20000' },
          ...table.services
            .filter((s) => s.routes)
            .map((s) => ({
              name: `${envName(s.name)}_URL`,
              value: `http://${serviceHost(s.name)}:${port(s.name, s.port)}`,
            })),
        ],
        ...probes(gwPort, 2),
        resources: { requests: { cpu: '200m', memory: '128Mi' }, limits: { cpu: '1', memory: '384Mi' } },
        volumeMounts: [
          { name: 'web', mountPath: '/srv/web', readOnly: true },
          { name: 'remotes', mountPath: '/etc/portal/remotes', readOnly: true },
        ],
      },
      volumes: [
        { name: 'web', persistentVolumeClaim: { claimName: 'portal-web', readOnly: true } },
        { name: 'remotes', configMap: { name: 'portal-remotes' } },
      ],
    }),
    service('gateway', gwPort),
    {
      apiVersion: 'networking.k8s.io/v1',
      kind: 'Ingress',
      metadata: {
        name: 'portal',
        labels: labels('portal', 'service'),
        annotations: {
          'nginx.ingress.kubernetes.io/proxy-body-size': '60m',
          'nginx.ingress.kubernetes.io/proxy-read-timeout': '120',
        },
      },
      spec: {
        rules: [
          {
            host: 'portal.example.org',
            http: {
              paths: [
                {
                  path: '/',
                  pathType: 'Prefix',
                  backend: { service: { name: 'gateway', port: { number: gwPort } } },
                },
              ],
            },
          },
        ],
      },
    },
    hpa('gateway', 2, 6),
    pdb('gateway', 'service', { minAvailable: 1 }),
  ];

  // Services behind the gateway and workers.
  for (const s of table.services) {
    const p = port(s.name, s.port);
    const isWorker = !s.routes;
    const claim = STORAGE[s.name];
    const volumeMounts = [
      { name: 'keys', mountPath: '/keys', readOnly: true },
      ...(claim ? [{ name: 'var', mountPath: '/var/lib/portal' }] : []),
    ];
    const volumes = [
      keysVolume(s.name === 'identity'),
      ...(claim ? [{ name: 'var', persistentVolumeClaim: { claimName: claim } }] : []),
    ];
    const env = [
      ...commonEnv,
      { name: 'PORT', value: String(p) },
      ...(s.name === 'identity' ? [{ name: 'JWT_PRIVATE_KEY_FILE', value: '/keys/jwt-private.pem' }] : []),
      ...(READ_REPLICA_USERS.has(s.name) ? readReplicaEnv : []),
      // A Service keeps sending new connections to a stopping pod until its endpoint is taken out, a moment
      // after SIGTERM: the service keeps listening (answering with Connection: close, /ready 503) for 5 s
      // first — the usual preStop pause, without a hook (server-kit's drainAndClose).
      // The whole stop then gets 20 s (of the pod's 30) instead of 10.
      ...(isWorker
        ? []
        : [
            { name: 'SHUTDOWN_DRAIN_MIN_MS', value: '5000' },
            { name: 'SHUTDOWN_GRACE_MS', value: '20000' },
          ]),
    ];
    const resources = CHROMIUM.has(s.name)
      ? { requests: { cpu: '250m', memory: '512Mi' }, limits: { cpu: '2', memory: '1536Mi' } }
      : { requests: { cpu: '100m', memory: '192Mi' }, limits: { cpu: '1', memory: '512Mi' } };
    const docs = [
      deployment(s.name, isWorker ? 'worker' : 'service', {
        replicas: isWorker ? 1 : 2,
        container: {
          ports: [{ name: 'http', containerPort: p }],
          env,
          ...probes(p),
          resources,
          volumeMounts,
        },
        volumes,
      }),
    ];
    if (isWorker) {
      const queue = WORKER_QUEUES[s.name];
      docs.push(
        {
          apiVersion: 'keda.sh/v1alpha1',
          kind: 'ScaledObject',
          metadata: { name: s.name, labels: labels(s.name, 'worker') },
          spec: {
            scaleTargetRef: { name: s.name },
            minReplicaCount: 1,
            maxReplicaCount: CHROMIUM.has(s.name) ? 6 : 4,
            pollingInterval: 15,
            cooldownPeriod: 300,
            triggers: [
              {
                type: 'redis',
                metadata: {
                  addressFromEnv: 'REDIS_ADDRESS',
                  listName: `portal:${queue}:wait`,
                  listLength: CHROMIUM.has(s.name) ? '4' : '10',
                  activationListLength: '1',
                },
              },
            ],
          },
        },
        pdb(s.name, 'worker', { maxUnavailable: 1 }),
      );
      // KEDA reads the Redis address (host:port) from the scaled container's environment.
      env.push({
        name: 'REDIS_ADDRESS',
        valueFrom: { secretKeyRef: { name: 'portal-secrets', key: 'REDIS_ADDRESS' } },
      });
    } else {
      docs.push(
        service(s.name, p),
        hpa(s.name, 2, s.name === 'locator' ? 8 : 6),
        pdb(s.name, 'service', { minAvailable: 1 }),
      );
    }
    files[`${s.name}.yaml`] = docs;
  }

  // The shell and each remote: a static artefact that publishes its files into the shared `web` volume
  // and stays up answering /health and /ready (docker/publish-static.mjs). Rolling one out replaces its
  // files under /srv/web, which the running gateway serves; the shell is not rebuilt nor restarted.
  const artefacts = [
    { name: 'shell', folder: 'shell' },
    ...remotes.remotes.map((r) => ({ name: REMOTE_FOLDERS[r.name], folder: REMOTE_FOLDERS[r.name] })),
  ];
  for (const a of artefacts) {
    const p = port(a.name, PUBLISHER_PORT);
    files[`${a.name}.yaml`] = [
      deployment(a.name, 'web', {
        replicas: 1,
        strategy: { type: 'Recreate' },
        container: {
          ports: [{ name: 'http', containerPort: p }],
          env: [
            { name: 'PUBLISH_SERVE', value: 'true' },
            { name: 'PORT', value: String(p) },
            { name: 'HOST', value: hostNetwork ? '127.0.0.1' : '0.0.0.0' },
          ],
          ...probes(p, 1),
          resources: { requests: { cpu: '10m', memory: '48Mi' }, limits: { cpu: '200m', memory: '96Mi' } },
          volumeMounts: [{ name: 'web', mountPath: '/srv/web' }],
        },
        volumes: [{ name: 'web', persistentVolumeClaim: { claimName: 'portal-web' } }],
      }),
    ];
  }

  const order = ['config.yaml', 'storage.yaml', 'database.yaml', 'migrate-job.yaml'].filter((f) => files[f]);
  files['kustomization.yaml'] = [
    {
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      resources: [
        ...order,
        ...Object.keys(files)
          .filter((f) => !order.includes(f) && f !== 'secrets.example.yaml')
          .sort(),
      ],
    },
  ];
  return files;
}

/**
 * The PostgreSQL the portal needs at 10 M addresses (docs/operations.md): a CloudNativePG `Cluster` of one
 * primary and one streaming replica (the locator's reads, and the failover target) on the PostGIS image,
 * WAL archived continuously and a base backup daily to an object store (barmanObjectStore; credentials in
 * the Secret `portal-db-backup`), so that a point in time can be restored. Needs the CNPG operator
 * (https://cloudnative-pg.io). A managed PostgreSQL with PostGIS and a read replica does the same job:
 * docs/operations.md says how.
 */
function databaseManifests() {
  const meta = (name) => ({ name, labels: labels(name, 'database') });
  return [
    {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'Cluster',
      metadata: meta(DB_CLUSTER),
      spec: {
        description: 'The portal: geodata (10 M addresses), requests, reports, accounts',
        instances: 2,
        imageName: 'ghcr.io/cloudnative-pg/postgis:16-3.4',
        primaryUpdateStrategy: 'unsupervised',
        // The replica on another node than the primary, where there is one.
        affinity: { enablePodAntiAffinity: true, topologyKey: 'kubernetes.io/hostname' },
        postgresql: {
          parameters: {
            max_connections: DB_SIZING.maxConnections,
            shared_buffers: '2GB',
            effective_cache_size: '6GB',
            work_mem: '8MB',
            maintenance_work_mem: '512MB',
            random_page_cost: '1.1',
            effective_io_concurrency: '200',
            max_wal_size: '4GB',
            wal_compression: 'on',
            // The replica answers long reads without cancelling them for the primary's vacuum.
            hot_standby_feedback: 'on',
          },
        },
        bootstrap: {
          initdb: {
            database: 'portal',
            owner: 'portal',
            // As the superuser: the migrations' own CREATE EXTENSION IF NOT EXISTS then find them there.
            postInitApplicationSQL: [
              'CREATE EXTENSION IF NOT EXISTS postgis',
              'CREATE EXTENSION IF NOT EXISTS pg_trgm',
            ],
          },
        },
        storage: { size: DB_SIZING.storage },
        walStorage: { size: DB_SIZING.walStorage },
        resources: {
          requests: { cpu: DB_SIZING.cpu, memory: DB_SIZING.memory },
          limits: { memory: DB_SIZING.memory },
        },
        monitoring: { enablePodMonitor: true },
        backup: {
          retentionPolicy: '30d',
          barmanObjectStore: {
            destinationPath: 's3://portal-backups/portal-db',
            s3Credentials: {
              accessKeyId: { name: 'portal-db-backup', key: 'ACCESS_KEY_ID' },
              secretAccessKey: { name: 'portal-db-backup', key: 'ACCESS_SECRET_KEY' },
            },
            wal: { compression: 'gzip', maxParallel: 2 },
            data: { compression: 'gzip' },
          },
        },
      },
    },
    {
      apiVersion: 'postgresql.cnpg.io/v1',
      kind: 'ScheduledBackup',
      metadata: meta(`${DB_CLUSTER}-daily`),
      spec: {
        // Six fields (seconds first): 02:00 every day.
        schedule: '0 0 2 * * *',
        backupOwnerReference: 'self',
        cluster: { name: DB_CLUSTER },
      },
    },
  ];
}

/**
 * Prometheus Operator objects (monitoring.coreos.com/v1): the alert rules as a `PrometheusRule` — the
 * same groups as docker/monitoring/alerts.yml, from scripts/monitoring.mjs — and PodMonitors scraping
 * every pod of a service or worker on its `http` port and the gateway on its `metrics` port, relabelled
 * with `process` and `tier` as the rules and the dashboard expect. PodMonitors rather than ServiceMonitors:
 * the workers have no Service, every pod is an instance of its own, and a ServiceMonitor's `service` target
 * label would push the metrics' own `service` label aside (as `exported_service`).
 */
function monitoringManifests() {
  const relabelings = [
    { sourceLabels: ['__meta_kubernetes_pod_label_app_kubernetes_io_name'], targetLabel: 'process' },
    { sourceLabels: ['__meta_kubernetes_pod_label_portal_tier'], targetLabel: 'tier' },
  ];
  const podMonitor = (name, matchExpressions, portName, tierLabel) => ({
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PodMonitor',
    metadata: { name, labels: labels(name, 'monitoring') },
    spec: {
      selector: { matchLabels: { 'app.kubernetes.io/part-of': 'portal' }, matchExpressions },
      podMetricsEndpoints: [
        {
          port: portName,
          path: '/metrics',
          interval: SCRAPE_INTERVAL,
          relabelings: tierLabel
            ? [relabelings[0], { targetLabel: 'tier', replacement: tierLabel }]
            : relabelings,
        },
      ],
    },
  });
  return [
    {
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: { name: 'portal', labels: labels('portal', 'monitoring') },
      spec: { groups: alertRuleGroups() },
    },
    podMonitor(
      'portal-processes',
      [
        { key: 'portal/tier', operator: 'In', values: ['service', 'worker'] },
        { key: 'app.kubernetes.io/name', operator: 'NotIn', values: ['gateway'] },
      ],
      'http',
    ),
    podMonitor(
      'portal-gateway',
      [{ key: 'app.kubernetes.io/name', operator: 'In', values: ['gateway'] }],
      'metrics',
      'gateway',
    ),
  ];
}

// ---- a small YAML writer (block style, prettier-stable for what the manifests hold) ----

const PLAIN = /^[A-Za-z_/.][A-Za-z0-9_./:@+-]*( [A-Za-z0-9_./:@+()-]+)*$/;
const RESERVED = /^(true|false|yes|no|on|off|null|~|y|n)$/i;
function scalar(value) {
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (value === null) return 'null';
  const s = String(value);
  if (PLAIN.test(s) && !RESERVED.test(s) && !/[:#]\s|:$/.test(s)) return s;
  return `'${s.replace(/'/g, "''")}'`;
}
const isObject = (v) => v && typeof v === 'object' && !Array.isArray(v);
function emit(value, indent) {
  const pad = ' '.repeat(indent);
  const lines = [];
  if (Array.isArray(value)) {
    for (const item of value) {
      if (isObject(item) && Object.keys(item).length) {
        const [first, ...rest] = emit(item, indent + 2);
        lines.push(`${pad}- ${first.trimStart()}`, ...rest);
      } else if (Array.isArray(item)) {
        throw new Error('nested sequences are not written');
      } else lines.push(`${pad}- ${scalar(item)}`);
    }
    return lines;
  }
  for (const [key, v] of Object.entries(value)) {
    const k = scalar(key);
    if (v === undefined) continue;
    if (typeof v === 'string' && v.includes('\n')) {
      lines.push(`${pad}${k}: |${v.endsWith('\n') ? '' : '-'}`);
      for (const line of v.replace(/\n$/, '').split('\n')) lines.push(line ? `${pad}  ${line}` : '');
    } else if (Array.isArray(v)) {
      if (!v.length) lines.push(`${pad}${k}: []`);
      else lines.push(`${pad}${k}:`, ...emit(v, indent + 2));
    } else if (isObject(v)) {
      if (!Object.keys(v).length) lines.push(`${pad}${k}: {}`);
      else lines.push(`${pad}${k}:`, ...emit(v, indent + 2));
    } else lines.push(`${pad}${k}: ${scalar(v)}`);
  }
  return lines;
}
export function toYaml(documents, header) {
  const body = documents.map((d) => emit(d, 0).join('\n')).join('\n---\n');
  return `${header ? `${header}\n` : ''}${body}\n`;
}

const HEADER =
  '# Generated by scripts/k8s-manifests.mjs from config/services.json and config/remotes.docker.json: edit those\n# (or the script) and run `node scripts/k8s-manifests.mjs`; `--check` tells whether this file is current.';

function main() {
  const check = process.argv.includes('--check');
  const files = generateManifests();
  const stale = [];
  mkdirSync(outDir, { recursive: true });
  for (const [file, docs] of Object.entries(files)) {
    const path = join(outDir, file);
    const text = toYaml(docs, HEADER);
    const current = existsSync(path) ? readFileSync(path, 'utf8') : undefined;
    if (current === text) continue;
    stale.push(file);
    if (!check) writeFileSync(path, text);
  }
  for (const file of readdirSync(outDir).filter((f) => f.endsWith('.yaml') && !files[f])) {
    stale.push(`${file} (no longer generated)`);
    if (!check) unlinkSync(join(outDir, file));
  }
  if (check && stale.length) {
    console.error(`docker/k8s is not what scripts/k8s-manifests.mjs writes: ${stale.join(', ')}`);
    console.error('run: node scripts/k8s-manifests.mjs');
    process.exit(1);
  }
  console.log(
    check
      ? `docker/k8s: ${Object.keys(files).length} files, current`
      : `docker/k8s: ${stale.length ? `wrote ${stale.join(', ')}` : 'nothing to change'}`,
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
