# bash completion for loaderd. Installed as /usr/share/bash-completion/completions/loaderd.
# Tested by scripts/completion-test.

_loaderd() {
    local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD-1]}
    local options="--socket --socket-group --display --loader --set --progress --message
        --max-clients --idle-timeout --display-timeout --log-level --freeze-time --psplash-fifo --plymouth
        --boot-timeline --boot-status-messages --mode-loader --mode --pid-file --config --restore-console --after-stop --end-splash --check-config --version
        --help -h"
    case $prev in
        --config|--check-config|--socket|--boot-timeline|--pid-file|--end-splash) COMPREPLY=($(compgen -f -- "$cur")); return ;;
        --psplash-fifo) COMPREPLY=($(compgen -d -- "$cur")); return ;;
        --socket-group) COMPREPLY=($(compgen -g -- "$cur")); return ;;
        --log-level) COMPREPLY=($(compgen -W "trace debug info notice warning error critical" -- "$cur")); return ;;
        --mode) COMPREPLY=($(compgen -W "boot shutdown reboot updates system-upgrade application-upgrade firmware-upgrade system-reset" -- "$cur")); return ;;
        --display)
            compopt -o nospace 2>/dev/null
            COMPREPLY=($(compgen -W "fb: drm: auto auto: max7219: apa102: sk9822: ws2812: sk6812: image: terminal:" -- "$cur"))
            return ;;
        --loader)
            local ctl
            ctl=$(dirname -- "${COMP_WORDS[0]}")/loaderctl
            [[ -x $ctl ]] || ctl=loaderctl
            COMPREPLY=($(compgen -W "$("$ctl" list --names 2>/dev/null)" -- "$cur"))
            return ;;
        --set|--progress|--message|--max-clients|--idle-timeout|--display-timeout|--freeze-time|--mode-loader) return ;;
    esac
    COMPREPLY=($(compgen -W "$options" -- "$cur"))
}
complete -F _loaderd loaderd
