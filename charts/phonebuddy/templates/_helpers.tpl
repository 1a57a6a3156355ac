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

{{/* A PhoneBuddy image: phonebuddy.image (dict "root" $ "image" .Values.broker.image) */}}
{{- define "phonebuddy.image" -}}
{{- $registry := .root.Values.global.image.registry | trimSuffix "/" -}}
{{- $tag := .image.tag | default .root.Values.global.image.tag | default .root.Chart.AppVersion -}}
{{- if $registry -}}
{{- printf "%s/%s:%s" $registry .image.repository $tag -}}
{{- else -}}
{{- printf "%s:%s" .image.repository $tag -}}
{{- end -}}
{{- end -}}

{{/* A third-party image (NATS, MinIO, an emulator): its own tag and pull policy. */}}
{{- define "phonebuddy.thirdPartyImage" -}}
{{- $registry := .root.Values.global.image.registry | trimSuffix "/" -}}
{{- if and .image.useGlobalRegistry $registry -}}
{{- printf "%s/%s:%s" $registry .image.repository .image.tag -}}
{{- else -}}
{{- printf "%s:%s" .image.repository .image.tag -}}
{{- end -}}
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
