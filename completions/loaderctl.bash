# bash completion for loaderctl. Installed as /usr/share/bash-completion/completions/loaderctl
# (bash-completion loads it the first time loaderctl is completed). Loader names and their
# parameter keys come from `loaderctl list`, so they follow the installed catalog.
# Tested by scripts/completion-test.

_loaderctl_loaders() {
    "$1" list --names 2>/dev/null
}

# The parameter keys of one loader, as key=: the indented lines under "NAME — summary".
_loaderctl_keys() {
    "$1" list 2>/dev/null | awk -v name="$2" '
        /^[^ ]/ { inside = ($1 == name) ; next }
        inside && NF { print $1 "=" }'
}

_loaderctl() {
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        _init_completion -n = || return
    else
        cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
        words=("${COMP_WORDS[@]}") cword=$COMP_CWORD
    fi
    local self=${words[0]}
    local global="--socket --timeout --quiet -q --version --help -h"
    local verbs="start stop progress message status ping brightness version render preview list help"
    local drawing="--size --progress --message --set --background --margin --mono --message-style --stop-at --outcome --fps --duration --help"

    # Option values first.
    case $prev in
        --socket) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        -o|--output) COMPREPLY=($(compgen -f -X '!*.@(png|ppm|gif)' -- "$cur") $(compgen -d -- "$cur")); return ;;
        --message-style) COMPREPLY=($(compgen -W "plain grok chatgpt calm" -- "$cur")); return ;;
        --outcome) COMPREPLY=($(compgen -W "success failure" -- "$cur")); return ;;
        --timeout|--wait-timeout|--size|--progress|--message|--set|--background|--margin|--stop-at|--fps|--duration|--at|--zoom) return ;;
    esac

    # The verb: the first word that is neither an option nor an option's value.
    local i verb="" verbat=0
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --socket|--timeout) ((i++)) ;;
            -*) ;;
            *) verb=${words[i]} verbat=$i; break ;;
        esac
    done
    if [[ -z $verb ]]; then
        if [[ $cur == -* ]]; then
            COMPREPLY=($(compgen -W "$global" -- "$cur"))
        else
            COMPREPLY=($(compgen -W "$verbs" -- "$cur"))
        fi
        return
    fi

    # Positional arguments after the verb (options and their values skipped).
    local args=() j
    for ((j = verbat + 1; j < cword; j++)); do
        case ${words[j]} in
            --socket|--timeout|--wait-timeout|--size|--progress|--message|--set|--background|--margin|--message-style|--stop-at|--outcome|--fps|--duration|--at|--zoom|-o|--output) ((j++)) ;;
            -*) ;;
            *) args+=("${words[j]}") ;;
        esac
    done
    local common="--socket --timeout --quiet -q --help"
    case $verb in
        start)
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "$common" -- "$cur"))
            elif ((${#args[@]} == 0)); then COMPREPLY=($(compgen -W "$(_loaderctl_loaders "$self")" -- "$cur"))
            else compopt -o nospace 2>/dev/null; COMPREPLY=($(compgen -W "$(_loaderctl_keys "$self" "${args[0]}")" -- "$cur"))
            fi ;;
        stop)
            if [[ $cur == -* ]]; then COMPREPLY=($(compgen -W "--wait --wait-timeout $common" -- "$cur"))
            elif ((${#args[@]} == 0)); then COMPREPLY=($(compgen -W "success failure now" -- "$cur"))
            fi ;;
        progress) COMPREPLY=($(compgen -W "--force $common" -- "$cur")) ;;
        status) COMPREPLY=($(compgen -W "--json $common" -- "$cur")) ;;
        message|ping|brightness|version) [[ $cur == -* ]] && COMPREPLY=($(compgen -W "$common" -- "$cur")) ;;
        list) COMPREPLY=($(compgen -W "--names --daemon --json $common" -- "$cur")) ;;
        render|preview)
            if [[ $cur == -* ]]; then
                local extra="--at --zoom --output -o"
                [[ $verb == preview ]] && extra=""
                COMPREPLY=($(compgen -W "$drawing $extra" -- "$cur"))
            elif ((${#args[@]} == 0)); then COMPREPLY=($(compgen -W "$(_loaderctl_loaders "$self")" -- "$cur"))
            fi ;;
        help) ((${#args[@]} == 0)) && COMPREPLY=($(compgen -W "${verbs% help}" -- "$cur")) ;;
    esac
}
complete -F _loaderctl loaderctl
