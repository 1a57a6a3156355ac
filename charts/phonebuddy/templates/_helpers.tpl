{{/* Names, labels, images and the environment every service shares. */}}

{{- define "phonebuddy.fullname" -}}
{{- if contains .Chart.Name .Release.Name -}}
{{- .Release.Name | trunc 40 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 40 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}

{{/* A component's object name: phonebuddy.name (dict "root" $ "component" "broker") */}}
{{- define "phonebuddy.name" -}}
{{- printf "%s-%s" (include "phonebuddy.fullname" .root) .component | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "phonebuddy.selectorLabels" -}}
app.kubernetes.io/name: {{ .root.Chart.Name }}
app.kubernetes.io/instance: {{ .root.Release.Name }}
app.kubernetes.io/component: {{ .component }}
{{- end -}}

{{- define "phonebuddy.labels" -}}
{{ include "phonebuddy.selectorLabels" . }}
app.kubernetes.io/version: {{ .root.Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .root.Release.Service }}
app.kubernetes.io/part-of: phonebuddy
helm.sh/chart: {{ printf "%s-%s" .root.Chart.Name .root.Chart.Version }}
{{- with .root.Values.global.labels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* An image reference: REPOSITORY:TAG, or REPOSITORY@sha256:... when a digest pins it (the
digest wins over the tag: what runs is exactly that image, whatever the tag points at later).
phonebuddy.imageRef (dict "repository" R "tag" T "digest" D) */}}
{{- define "phonebuddy.imageRef" -}}
{{- with .digest -}}
{{- if not (regexMatch "^sha256:[0-9a-f]{64}$" .) -}}
{{- fail (printf "image digest %q must be sha256: and 64 lower-case hex digits, as `crane digest` or `docker buildx imagetools inspect` print it" .) -}}
{{- end -}}
{{- printf "%s@%s" $.repository . -}}
{{- else -}}
{{- printf "%s:%s" .repository .tag -}}
{{- end -}}
{{- end -}}

{{/* A PhoneBuddy image: phonebuddy.image (dict "root" $ "image" .Values.broker.image) */}}
{{- define "phonebuddy.image" -}}
{{- $registry := .root.Values.global.image.registry | trimSuffix "/" -}}
{{- $repository := .image.repository -}}
{{- if $registry -}}
{{- $repository = printf "%s/%s" $registry .image.repository -}}
{{- end -}}
{{- $tag := .image.tag | default .root.Values.global.image.tag | default .root.Chart.AppVersion -}}
{{- include "phonebuddy.imageRef" (dict "repository" $repository "tag" $tag "digest" .image.digest) -}}
{{- end -}}

{{/* A third-party image (NATS, MinIO, an emulator): its own tag and pull policy. */}}
{{- define "phonebuddy.thirdPartyImage" -}}
{{- $registry := .root.Values.global.image.registry | trimSuffix "/" -}}
{{- $repository := .image.repository -}}
{{- if and .image.useGlobalRegistry $registry -}}
{{- $repository = printf "%s/%s" $registry .image.repository -}}
{{- end -}}
{{- include "phonebuddy.imageRef" (dict "repository" $repository "tag" .image.tag "digest" .image.digest) -}}
{{- end -}}

{{- define "phonebuddy.podSpecCommon" -}}
serviceAccountName: {{ include "phonebuddy.name" . }}
automountServiceAccountToken: false
securityContext:
  {{- toYaml .root.Values.global.podSecurityContext | nindent 2 }}
{{- with .root.Values.global.image.pullSecrets }}
imagePullSecrets:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- if .root.Values.global.hostNetwork }}
hostNetwork: true
dnsPolicy: ClusterFirstWithHostNet
{{- end }}
{{- with .values.nodeSelector }}
nodeSelector:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.tolerations }}
tolerations:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- with .values.affinity }}
affinity:
  {{- toYaml . | nindent 2 }}
{{- end }}
{{- end -}}

{{/* Probes on the services' real routes (phonebuddy.telemetry.health; vLLM has /health). */}}
{{- define "phonebuddy.probes" -}}
startupProbe:
  httpGet: {path: {{ .livePath | default "/livez" }}, port: http}
  periodSeconds: 2
  failureThreshold: {{ .startupFailures | default 60 }}
livenessProbe:
  httpGet: {path: {{ .livePath | default "/livez" }}, port: http}
  periodSeconds: 10
  timeoutSeconds: 5
  failureThreshold: 3
readinessProbe:
  httpGet: {path: {{ .readyPath | default "/readyz" }}, port: http}
  periodSeconds: 5
  timeoutSeconds: 5
  failureThreshold: 3
{{- end -}}

{{/* Where a component of this release answers: its Service, or with hostNetwork (a one-node
cluster without cluster DNS or kube-proxy) the node's loopback, where every pod listens.
phonebuddy.host (dict "root" $ "component" "nats") */}}
{{- define "phonebuddy.host" -}}
{{- if .root.Values.global.hostNetwork -}}
127.0.0.1
{{- else -}}
{{- include "phonebuddy.name" . -}}
{{- end -}}
{{- end -}}

{{- define "phonebuddy.natsUrl" -}}
{{- if .Values.nats.enabled -}}
{{- printf "nats://%s:%d" (include "phonebuddy.host" (dict "root" . "component" "nats")) (int .Values.nats.service.port) -}}
{{- else -}}
{{- required "global.nats.url must be set when nats.enabled is false (the services need a NATS server with JetStream)" .Values.global.nats.url -}}
{{- end -}}
{{- end -}}

{{- define "phonebuddy.natsSecret" -}}
{{- .Values.global.nats.existingSecret | default (include "phonebuddy.name" (dict "root" . "component" "nats-users")) -}}
{{- end -}}

{{/* PHONEBUDDY_NATS_* for one NATS user: phonebuddy.natsEnv (dict "root" $ "user" "broker") */}}
{{- define "phonebuddy.natsEnv" -}}
- name: PHONEBUDDY_NATS_URL
  value: {{ include "phonebuddy.natsUrl" .root | quote }}
- name: PHONEBUDDY_NATS_USER
  value: {{ .user | quote }}
- name: PHONEBUDDY_NATS_PASSWORD
  valueFrom:
    secretKeyRef:
      name: {{ include "phonebuddy.natsSecret" .root }}
      key: {{ .user }}
{{- end -}}

{{- define "phonebuddy.storeSecret" -}}
{{- if .Values.objectStore.external.enabled -}}
{{- required "objectStore.external.existingSecret must name a Secret with accessKey and secretKey when objectStore.external.enabled is true" .Values.objectStore.external.existingSecret -}}
{{- else -}}
{{- .Values.objectStore.minio.existingSecret | default (include "phonebuddy.name" (dict "root" . "component" "object-store")) -}}
{{- end -}}
{{- end -}}

{{- define "phonebuddy.storeEndpoint" -}}
{{- if .Values.objectStore.external.enabled -}}
{{- required "objectStore.external.endpoint (HOST:PORT) must be set when objectStore.external.enabled is true" .Values.objectStore.external.endpoint -}}
{{- else -}}
{{- printf "%s:%d" (include "phonebuddy.host" (dict "root" . "component" "minio")) (int .Values.objectStore.minio.service.port) -}}
{{- end -}}
{{- end -}}

{{- define "phonebuddy.storeUrl" -}}
{{- $prefix := .Values.global.objectStore.prefix | trimAll "/" -}}
{{- if $prefix -}}
{{- printf "s3://%s/%s" .Values.global.objectStore.bucket $prefix -}}
{{- else -}}
{{- printf "s3://%s" .Values.global.objectStore.bucket -}}
{{- end -}}
{{- end -}}

{{/* PHONEBUDDY_STORE_* (endpoint and credentials; the URL is the store root). */}}
{{- define "phonebuddy.storeEnv" -}}
- name: PHONEBUDDY_STORE_URL
  value: {{ include "phonebuddy.storeUrl" . | quote }}
- name: PHONEBUDDY_STORE_ENDPOINT
  value: {{ include "phonebuddy.storeEndpoint" . | quote }}
- name: PHONEBUDDY_STORE_SECURE
  value: {{ ternary .Values.objectStore.external.secure false .Values.objectStore.external.enabled | quote }}
{{- if and .Values.objectStore.external.enabled .Values.objectStore.external.region }}
- name: PHONEBUDDY_STORE_REGION
  value: {{ .Values.objectStore.external.region | quote }}
{{- end }}
- name: PHONEBUDDY_STORE_CREATE_BUCKET
  value: {{ not .Values.objectStore.external.enabled | quote }}
- name: PHONEBUDDY_STORE_ACCESS_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "phonebuddy.storeSecret" . }}
      key: accessKey
- name: PHONEBUDDY_STORE_SECRET_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "phonebuddy.storeSecret" . }}
      key: secretKey
{{- end -}}

{{- define "phonebuddy.policySecret" -}}
{{- include "phonebuddy.name" (dict "root" . "component" "policy-keys") -}}
{{- end -}}

{{- define "phonebuddy.policyApiKeyEnv" -}}
- name: PHONEBUDDY_POLICY_API_KEY
  valueFrom:
    secretKeyRef:
      name: {{ include "phonebuddy.policySecret" . }}
      key: apiKey
{{- end -}}

{{/* A value kept across upgrades: an existing Secret's key, else a fresh random one. */}}
{{- define "phonebuddy.keptSecretValue" -}}
{{- $existing := lookup "v1" "Secret" .root.Release.Namespace .secret -}}
{{- if and $existing (index ($existing.data | default dict) .key) -}}
{{- index $existing.data .key | b64dec -}}
{{- else -}}
{{- randAlphaNum (.length | default 32) -}}
{{- end -}}
{{- end -}}

{{- define "phonebuddy.containerSecurity" -}}
securityContext:
  {{- toYaml .Values.global.securityContext | nindent 2 }}
{{- end -}}

{{/* Where a service binds: every interface of its pod, or with hostNetwork (a one-node
loopback cluster) the node's loopback only, never every interface of the node.
phonebuddy.bindEnv (dict "root" $ "name" "X") */}}
{{- define "phonebuddy.bindEnv" -}}
- name: {{ .name }}
  value: {{ ternary "127.0.0.1" "0.0.0.0" .root.Values.global.hostNetwork | quote }}
{{- end -}}

{{/* NetworkPolicy egress rules to destinations given in the values (networkPolicy.egress.*):
each `{cidr, except}` or `{namespaceSelector, podSelector}` (label maps), with `ports` (TCP);
without `ports` the default ports given here, and without those any port.
phonebuddy.egressRules (dict "to" LIST "ports" DEFAULT_PORTS "what" "networkPolicy.egress.nats")
prints a YAML list (read it back with fromYamlArray). */}}
{{- define "phonebuddy.egressRules" -}}
{{- $rules := list -}}
{{- range $i, $to := .to -}}
{{- $where := printf "%s[%d]" $.what $i -}}
{{- if not (kindIs "map" $to) -}}
{{- fail (printf "%s must be a map: {cidr: ...} or {namespaceSelector: ..., podSelector: ...}, with optional ports" $where) -}}
{{- end -}}
{{- range $key := keys $to -}}
{{- if not (has $key (list "cidr" "except" "namespaceSelector" "podSelector" "ports")) -}}
{{- fail (printf "%s has an unknown key %q (known: cidr, except, namespaceSelector, podSelector, ports)" $where $key) -}}
{{- end -}}
{{- end -}}
{{- $peer := dict -}}
{{- if $to.cidr -}}
{{- if or (hasKey $to "namespaceSelector") (hasKey $to "podSelector") -}}
{{- fail (printf "%s: give either cidr or selectors, not both (a NetworkPolicy peer is one or the other)" $where) -}}
{{- end -}}
{{- $block := dict "cidr" $to.cidr -}}
{{- with $to.except -}}
{{- $_ := set $block "except" . -}}
{{- end -}}
{{- $peer = dict "ipBlock" $block -}}
{{- else if or (hasKey $to "namespaceSelector") (hasKey $to "podSelector") -}}
{{- if hasKey $to "namespaceSelector" -}}
{{- $_ := set $peer "namespaceSelector" (dict "matchLabels" ($to.namespaceSelector | default dict)) -}}
{{- end -}}
{{- if hasKey $to "podSelector" -}}
{{- $_ := set $peer "podSelector" (dict "matchLabels" ($to.podSelector | default dict)) -}}
{{- end -}}
{{- else -}}
{{- fail (printf "%s needs a cidr, or a namespaceSelector and/or podSelector" $where) -}}
{{- end -}}
{{- $rule := dict "to" (list $peer) -}}
{{- $ports := list -}}
{{- range (ternary $to.ports $.ports (hasKey $to "ports")) -}}
{{- $ports = append $ports (dict "port" (int .) "protocol" "TCP") -}}
{{- end -}}
{{- if $ports -}}
{{- $_ := set $rule "ports" $ports -}}
{{- end -}}
{{- $rules = append $rules $rule -}}
{{- end -}}
{{- toYaml $rules -}}
{{- end -}}
