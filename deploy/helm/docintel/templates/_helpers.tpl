{{/* Names and labels. */}}
{{- define "docintel.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 40 | trimSuffix "-" }}
{{- end }}

{{- define "docintel.fullname" -}}
{{- if .Values.fullnameOverride }}
{{- .Values.fullnameOverride | trunc 46 | trimSuffix "-" }}
{{- else }}
{{- $name := default .Chart.Name .Values.nameOverride }}
{{- if contains $name .Release.Name }}
{{- .Release.Name | trunc 46 | trimSuffix "-" }}
{{- else }}
{{- printf "%s-%s" .Release.Name $name | trunc 46 | trimSuffix "-" }}
{{- end }}
{{- end }}
{{- end }}

{{/* The apps this release runs, in a fixed order. job-agent is optional. */}}
{{- define "docintel.appNames" -}}
{{- $apps := list "api-gateway" "storage-service" "indexing-service" "job-orchestrator" }}
{{- if (index .Values.apps "job-agent").enabled }}{{ $apps = append $apps "job-agent" }}{{ end }}
{{- $apps = append $apps "rules-engine" }}
{{- join " " $apps }}
{{- end }}

{{/* Object name of an app: dict "root" $ "app" <name>. */}}
{{- define "docintel.appFullname" -}}
{{- printf "%s-%s" (include "docintel.fullname" .root) .app | trunc 63 | trimSuffix "-" }}
{{- end }}

{{- define "docintel.selectorLabels" -}}
app.kubernetes.io/name: {{ include "docintel.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .app }}
{{- end }}

{{/* Labels of an object; dict "root" $ and, for an app's objects, "app" <name>. */}}
{{- define "docintel.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version | replace "+" "_" }}
app.kubernetes.io/name: {{ include "docintel.name" .root }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
{{- with .app }}
app.kubernetes.io/component: {{ . }}
{{- end }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: docintel
{{- end }}

{{- define "docintel.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) }}
{{- end }}

{{- define "docintel.configName" -}}{{ include "docintel.fullname" . }}-config{{- end }}

{{- define "docintel.secretName" -}}
{{- default (include "docintel.fullname" .) .Values.secrets.existingSecret }}
{{- end }}

{{- define "docintel.providersSecretName" -}}
{{- default (printf "%s-providers" (include "docintel.fullname" .)) .Values.providers.existingSecret }}
{{- end }}

{{/* True (non-empty) when storage-service gets a providers file. */}}
{{- define "docintel.hasProviders" -}}
{{- if or .Values.providers.existingSecret .Values.providers.list }}true{{ end }}
{{- end }}

{{/* PUBLIC_URL: the value, else the Ingress host, else the port-forward address. */}}
{{- define "docintel.publicUrl" -}}
{{- if .Values.config.PUBLIC_URL }}
{{- .Values.config.PUBLIC_URL }}
{{- else if and .Values.ingress.enabled .Values.ingress.host }}
{{- printf "%s://%s" (ternary "https" "http" (not (empty .Values.ingress.tlsSecretName))) .Values.ingress.host }}
{{- else }}
{{- print "http://127.0.0.1:8080" }}
{{- end }}
{{- end }}

{{/*
An environment value as a string. YAML numbers reach templates as float64, which would print
5368709120 as 5.36870912e+09: whole numbers are printed as integers.
*/}}
{{- define "docintel.envValue" -}}
{{- if and (kindIs "float64" .) (eq (float64 (int64 .)) .) }}{{ int64 . }}{{ else }}{{ . }}{{ end }}
{{- end }}

{{/*
The app's plain env: job-agent runs the job-orchestrator app, so job-orchestrator's env applies
to it too, under its own.
*/}}
{{- define "docintel.appEnv" -}}
{{- $v := index .root.Values.apps .app }}
{{- if eq .app "job-agent" }}
{{- toJson (merge (deepCopy ($v.env | default dict)) ((index .root.Values.apps "job-orchestrator").env | default dict)) }}
{{- else }}
{{- toJson ($v.env | default dict) }}
{{- end }}
{{- end }}

{{/* The image's app argument (docker/entrypoint.sh). */}}
{{- define "docintel.appArg" -}}
{{- if eq .app "job-agent" }}job-orchestrator{{ else }}{{ .app }}{{ end }}
{{- end }}

{{/* JOB_QUEUES of the job-orchestrator app's Deployments: job-agent takes the agent queue when it runs. */}}
{{- define "docintel.jobQueues" -}}
{{- if eq .app "job-agent" }}agent
{{- else if (index .root.Values.apps "job-agent").enabled }}units
{{- else }}units,agent
{{- end }}
{{- end }}

{{- define "docintel.preStopSeconds" -}}
{{- if eq .app "api-gateway" }}{{ (index .root.Values.apps "api-gateway").preStopSeconds | default 0 | int }}{{ else }}0{{ end }}
{{- end }}

{{/*
terminationGracePeriodSeconds: the process forces its exit SHUTDOWN_TIMEOUT_MS + 5 s after
SIGTERM, which comes after the preStop pause; Kubernetes must not kill it before. 10 s margin.
*/}}
{{- define "docintel.gracePeriod" -}}
{{- $v := index .root.Values.apps .app }}
{{- $needed := add (div (add (int .root.Values.config.SHUTDOWN_TIMEOUT_MS) 999) 1000) 5 (include "docintel.preStopSeconds" . | int) }}
{{- if $v.terminationGracePeriodSeconds }}
{{- if le (int $v.terminationGracePeriodSeconds) $needed }}
{{- fail (printf "apps.%s.terminationGracePeriodSeconds (%d) must be above %d s: SHUTDOWN_TIMEOUT_MS + 5 s%s, or Kubernetes kills the pod while it drains" .app (int $v.terminationGracePeriodSeconds) $needed (ternary " + preStopSeconds" "" (eq .app "api-gateway"))) }}
{{- end }}
{{- int $v.terminationGracePeriodSeconds }}
{{- else }}
{{- add $needed 10 }}
{{- end }}
{{- end }}

{{/* Whether an app's replica count belongs to an autoscaler. */}}
{{- define "docintel.autoscaled" -}}
{{- if (index .root.Values.apps .app).autoscaling.enabled }}true{{ end }}
{{- end }}

{{/* The smallest number of replicas the app runs with. */}}
{{- define "docintel.minReplicas" -}}
{{- $v := index .root.Values.apps .app }}
{{- if $v.autoscaling.enabled }}{{ int $v.autoscaling.minReplicas }}{{ else }}{{ int $v.replicas }}{{ end }}
{{- end }}

{{/*
The JetStream durable consumers KEDA can scale on: stream (logical name, before NATS_PREFIX),
what one replica holds unacknowledged at once (consumers per replica x messages fetched ahead,
see the @DurableWorker of each and apps/job-orchestrator/src/execution/unit-worker.ts), and the
variable that sets the consumers per replica with its default in the app's *.env.ts, plus `extra`
consumers beyond it. The steps of indexing-service have a lane for large files each (`<step>_large`,
apps/indexing-service/src/pipeline/lanes.ts).
*/}}
{{- define "docintel.consumers" -}}
corpus_parsing: { stream: HOOKS, concurrencyVar: PARSE_POOL_SIZE, concurrency: 1, fetch: 1 }
corpus_parsing_large: { stream: HOOKS, concurrency: 1, fetch: 1 }
node_embedding: { stream: HOOKS, concurrencyVar: EMBEDDING_CONCURRENCY, concurrency: 1, fetch: 1 }
node_embedding_large: { stream: HOOKS, concurrencyVar: EMBEDDING_CONCURRENCY, concurrency: 1, fetch: 1 }
passage_indexing: { stream: HOOKS, concurrency: 1, fetch: 1 }
passage_indexing_large: { stream: HOOKS, concurrency: 1, fetch: 1 }
formula_augmentation: { stream: HOOKS, concurrency: 1, fetch: 4 }
formula_augmentation_large: { stream: HOOKS, concurrency: 1, fetch: 1 }
indexing_ontologies: { stream: WORK, concurrency: 1, fetch: 4 }
indexing_ontologies_large: { stream: WORK, concurrency: 1, fetch: 1 }
indexing_reindex: { stream: WORK, concurrency: 2, fetch: 4 }
job_units: { stream: WORK, concurrencyVar: JOB_CONCURRENCY, concurrency: 2, fetch: 1 }
agent_runs: { stream: WORK, concurrencyVar: AGENT_CONCURRENCY, concurrency: 2, fetch: 1 }
{{- end }}

{{/* A stream or durable name as libs/messaging prefixes it (prefixedName): <NATS_PREFIX>_<name>. */}}
{{- define "docintel.natsName" -}}
{{- if .prefix }}{{ printf "%s_%s" .prefix .name }}{{ else }}{{ .name }}{{ end }}
{{- end }}

{{/*
The KEDA lag triggers of an app as JSON: [{consumer, stream, lagThreshold}]. job-orchestrator
takes agent_runs (with job-agent's threshold) when job-agent is disabled. A threshold below what
one busy replica holds unacknowledged would add replicas with nothing waiting: refused.
*/}}
{{- define "docintel.lagTriggers" -}}
{{- $root := .root }}
{{- $v := index $root.Values.apps .app }}
{{- $thresholds := deepCopy ($v.autoscaling.lagThreshold | default dict) }}
{{- $agent := index $root.Values.apps "job-agent" }}
{{- if and (eq .app "job-orchestrator") (not $agent.enabled) }}
{{- $_ := set $thresholds "agent_runs" ($agent.autoscaling.lagThreshold | default dict).agent_runs }}
{{- end }}
{{- $env := include "docintel.appEnv" . | fromJson }}
{{- $consumers := include "docintel.consumers" . | fromYaml }}
{{- $prefix := $root.Values.config.NATS_PREFIX | default "" }}
{{- $out := list }}
{{- range $consumer := keys $thresholds | sortAlpha }}
{{- $threshold := index $thresholds $consumer }}
{{- if $threshold }}
{{- $c := index $consumers $consumer }}
{{- $perReplica := $c.concurrency | int }}
{{- if and $c.concurrencyVar (hasKey $env $c.concurrencyVar) }}{{ $perReplica = index $env $c.concurrencyVar | int }}{{ end }}
{{- $perReplica = add $perReplica ($c.extra | default 0 | int) }}
{{- $held := mul $perReplica ($c.fetch | int) }}
{{- if lt (int $threshold) (int $held) }}
{{- fail (printf "apps.%s.autoscaling.lagThreshold.%s (%d) is below the %d messages one busy replica holds unacknowledged: KEDA would add replicas with nothing waiting" $.app $consumer (int $threshold) $held) }}
{{- end }}
{{- $out = append $out (dict "consumer" (include "docintel.natsName" (dict "prefix" $prefix "name" $consumer)) "stream" (include "docintel.natsName" (dict "prefix" $prefix "name" $c.stream)) "lagThreshold" (int $threshold)) }}
{{- end }}
{{- end }}
{{- toJson $out }}
{{- end }}

{{/*
How the app scales: "keda" (a ScaledObject), "hpa" (a CPU HorizontalPodAutoscaler) or "" (fixed
replicas). The job apps and indexing-service use KEDA when it is enabled; api-gateway when a
Prometheus is given for its request rate.
*/}}
{{- define "docintel.scaler" -}}
{{- $v := index .root.Values.apps .app }}
{{- $a := .root.Values.autoscaling }}
{{- if $v.autoscaling.enabled }}
{{- if lt (int $v.autoscaling.maxReplicas) (int $v.autoscaling.minReplicas) }}
{{- fail (printf "apps.%s.autoscaling.maxReplicas (%d) is below minReplicas (%d)" .app (int $v.autoscaling.maxReplicas) (int $v.autoscaling.minReplicas)) }}
{{- end }}
{{- if eq .app "api-gateway" }}
{{- if $a.gateway.requests.prometheusServerAddress }}
{{- if not $a.keda.enabled }}
{{- fail "autoscaling.gateway.requests.prometheusServerAddress needs KEDA: set autoscaling.keda.enabled=true (and install KEDA), or leave the address empty for a CPU autoscaler" }}
{{- end }}keda
{{- else }}hpa
{{- end }}
{{- else if and $a.keda.enabled (has .app (list "indexing-service" "job-orchestrator" "job-agent")) }}keda
{{- else }}hpa
{{- end }}
{{- end }}
{{- end }}
